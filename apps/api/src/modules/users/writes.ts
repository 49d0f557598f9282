import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { findUserByEmail, type UserRow } from './repo.ts';

/**
 * The account row's writes other modules make (registration, activation, Google, passwords,
 * invitations): this module owns the table, they pass their transaction so each write commits
 * with the change it belongs to, one statement each as before.
 */

type NewUser = typeof users.$inferInsert;

/** A new account (registration, a first Google sign-in); the unique index on e-mail may refuse it. */
export async function createUser(tx: Tx, values: NewUser): Promise<UserRow> {
  const [user] = await tx.insert(users).values(values).returning();
  return user!;
}

/**
 * The live account of this e-mail (any case), or a new one made from `fields`. Two requests
 * making the same account at once meet at the unique index: the loser's insert does nothing and
 * it reads the winner's row.
 */
export async function findOrCreateUser(
  tx: Tx,
  email: string,
  fields: Pick<
    UserRow,
    'first_name' | 'last_name' | 'password_hash' | 'email_verified_at' | 'can_create_client'
  >,
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByEmail(tx, email);
  if (existing) return { user: existing, created: false };
  const [made] = await tx
    .insert(users)
    .values({ email, ...fields })
    .onConflictDoNothing()
    .returning();
  if (made) return { user: made, created: true };
  const raced = await findUserByEmail(tx, email);
  if (!raced) throw new Error('an account insert conflicted but no account has the e-mail');
  return { user: raced, created: false };
}

/**
 * The update of last_login_at, not yet run: a CTE of the statement that opens a session (decision
 * 0015), so a sign-in stays one statement after the hash.
 */
export function lastLoginUpdate(db: Db | Tx, userId: string, at: Date) {
  return db.update(users).set({ last_login_at: at }).where(eq(users.id, userId));
}

/** When the owner was last mailed that someone tried to register their address. */
export async function setRegistrationNoticeAt(tx: Tx, userId: string, at: Date): Promise<void> {
  await tx.update(users).set({ registration_notice_at: at }).where(eq(users.id, userId));
}

/** The account is active from its first proof of the mailbox on (an activation code). */
export async function verifyEmail(tx: Tx, user: UserRow, at: Date): Promise<void> {
  await tx
    .update(users)
    .set({ email_verified_at: user.email_verified_at ?? at })
    .where(eq(users.id, user.id));
}

/**
 * Google proved who owns the address of a never-activated account: it is verified, and the
 * password set on it, which that owner did not prove, goes.
 */
export async function verifyEmailDroppingPassword(
  tx: Tx,
  userId: string,
  at: Date,
): Promise<UserRow> {
  const [updated] = await tx
    .update(users)
    .set({ email_verified_at: at, password_hash: null })
    .where(eq(users.id, userId))
    .returning();
  return updated!;
}

/**
 * The owner proved the new address with a code sent to it: it becomes the account's, verified.
 * The unique index on the address refuses one another account took meanwhile (the caller
 * answers it).
 */
export async function setEmail(tx: Tx, userId: string, email: string, at: Date): Promise<void> {
  await tx.update(users).set({ email, email_verified_at: at }).where(eq(users.id, userId));
}

/** A password chosen by the signed-in owner. */
export async function setPassword(tx: Tx, userId: string, passwordHash: string): Promise<void> {
  await tx.update(users).set({ password_hash: passwordHash }).where(eq(users.id, userId));
}

/** A password reset by a code from the mailbox, which activates an account that never was. */
export async function resetPassword(
  tx: Tx,
  user: UserRow,
  passwordHash: string,
  at: Date,
): Promise<void> {
  await tx
    .update(users)
    .set({ password_hash: passwordHash, email_verified_at: user.email_verified_at ?? at })
    .where(eq(users.id, user.id));
}

/**
 * An accepted invitation verifies the invitee's e-mail (the token came through it), and sets a
 * first password and names when given.
 */
export async function completeInvitedAccount(
  tx: Tx,
  user: UserRow,
  chosen: {
    passwordHash?: string;
    first_name?: string | undefined;
    last_name?: string | undefined;
  },
  at: Date,
): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({
      email_verified_at: user.email_verified_at ?? at,
      ...(chosen.passwordHash && {
        password_hash: chosen.passwordHash,
        ...(chosen.first_name && { first_name: chosen.first_name }),
        ...(chosen.last_name && { last_name: chosen.last_name }),
      }),
    })
    .where(eq(users.id, user.id))
    .returning();
  return row!;
}
