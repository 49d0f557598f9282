// The clients (workspaces) module's face: its routes, and the checks other modules may reuse.
export { assertWorkspaceLimit } from './limits.ts';
export { lockOrganization } from './repo.ts';
export { clientRoutes as clientsModule } from './routes.ts';
