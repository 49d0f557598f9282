import { eq } from 'drizzle-orm';
import type { UserUpdate } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema/index.ts';
import { fieldError, notAuthenticated } from '../../lib/errors.ts';
import { isOwnUploadUrl } from '../uploads/index.ts';
import { toUserDto, type UserRow } from './repo.ts';

export async function updateUser(ctx: AppContext, user: UserRow, patch: UserUpdate) {
  const userId = user.id;
  // An empty change is answered with the user as is: nothing to write (and drizzle cannot
  // build an UPDATE without a SET).
  if (Object.values(patch).every((value) => value === undefined)) return toUserDto(user);
  if (patch.avatar && !(await isOwnUploadUrl(ctx.db, userId, patch.avatar))) {
    throw fieldError(
      'avatar',
      'Upload the image first (POST /v1/upload/) and use the URL it returns.',
    );
  }
  const { clientsViewOption, ...fields } = patch;
  const [row] = await ctx.db
    .update(users)
    .set({ ...fields, clients_view_option: clientsViewOption })
    .where(eq(users.id, userId))
    .returning();
  if (!row) throw notAuthenticated();
  return toUserDto(row);
}
