// The clients (workspaces) module's face: its routes, and the check other modules may reuse.
export { assertWorkspaceLimit } from './limits.ts';
export { clientRoutes as clientsModule } from './routes.ts';
