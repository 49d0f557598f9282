// The users module's face: what other modules may use of it.
import type { App } from '../../context.ts';
import { accountRoutes } from './account-routes.ts';
import { userRoutes } from './routes.ts';

export { LastActive } from './last-active.ts';
export { findUserByEmail, findUserById, type UserRow } from './repo.ts';
export {
  completeInvitedAccount,
  createUser,
  findOrCreateUser,
  lastLoginUpdate,
  resetPassword,
  setEmail,
  setPassword,
  setRegistrationNoticeAt,
  verifyEmail,
  verifyEmailDroppingPassword,
} from './writes.ts';

/** GET/PATCH /v1/rest-auth/user/ and GET /v1/user/is-existed/. */
export async function usersModule(app: App): Promise<void> {
  await app.register(accountRoutes);
  await app.register(userRoutes);
}
export { usersExporter } from './data-export.ts';
