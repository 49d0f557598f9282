// The access layer's face: routes declare `config.access`; services take the actor it resolves.
export {
  findActor,
  registerAccess,
  requireActor,
  type AccessRule,
  type Actor,
  type TenantRef,
} from './hook.ts';
export { lockTenant, type TenantLock } from './locks.ts';
export { workspaceVisibleTo } from './visibility.ts';
