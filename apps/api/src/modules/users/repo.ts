import { and, eq, isNull, sql } from 'drizzle-orm';
import type { User } from '@portolan/contract';
import type { Db, Tx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

/** E-mails are stored as given (trimmed) and matched case-insensitively. */
export async function findUserByEmail(db: Db | Tx, email: string, opts: { lock?: boolean } = {}) {
  const q = db
    .select()
    .from(users)
    .where(
      and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, isNull(users.deleted_at)),
    )
    .limit(1);
  const [row] = opts.lock ? await q.for('update') : await q;
  return row;
}

export async function findUserById(db: Db | Tx, id: string, opts: { lock?: boolean } = {}) {
  const q = db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deleted_at)))
    .limit(1);
  const [row] = opts.lock ? await q.for('update') : await q;
  return row;
}

/** What the answer adds from configuration (account-routes.ts `userInfo`). */
export type UserFromConfig = 'custom_shipment_template' | 'is_internal';

/** The public shape of a user (GET /v1/rest-auth/user/), before what configuration adds. */
export function toUserDto(row: UserRow): Omit<User, UserFromConfig> {
  return {
    user_id: row.id,
    pk: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    avatar: row.avatar,
    can_create_client: row.can_create_client,
    clientsViewOption: row.clients_view_option,
  };
}
