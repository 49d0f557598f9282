// The access face, the request kernel: every route declares `config.access`; services take the
// caller (`requireAuth`) or the actor (`requireActor`) it establishes.
export {
  requireAuth,
  requireSession,
  type AuthState,
  type KeyOf,
  type SessionAuth,
} from './authenticate.ts';
export {
  declaredScope,
  registerAccess,
  requireActor,
  toOwnerOrAdmin,
  type AccessRule,
} from './kernel.ts';
export { decideTenant, type Actor } from './tenant.ts';
export { lockTenant, type TenantLock } from './locks.ts';
export { workspaceVisibleTo } from './visibility.ts';
export { mfaEnforcedFrom } from './mfa-policy.ts';
