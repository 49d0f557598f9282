import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { loginFailures, passkeys, userMfa, users } from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UserRow } from '../users/index.ts';

/**
 * Failed sign-ins are kept in the database so the lockout holds across instances.
 *
 * An attempt is reserved *before* the password is checked: under a row lock per e-mail (its
 * `login_throttles` row), the failures of the window are counted and, below the limit, this
 * attempt is recorded as one. Guesses sent in parallel are so counted one at a time, and no more
 * than `max` passwords are ever checked per account and window. The lock is held for this one
 * statement only, never during the (slow) password check; a right password releases its
 * reservation afterwards, in the statement that opens the session (service.ts).
 *
 * The reservation is made by the function `portolan_reserve_login` (migration 0015), in the same
 * statement that reads the account of the e-mail: one round trip before the hash. A function,
 * not a CTE: each of its statements reads a snapshot of its own, taken after the lock, so the
 * count sees every attempt committed by those who held the lock before (a CTE's count would read
 * the statement's snapshot, taken before waiting for the lock).
 *
 * Returns the reservation (a login_failures row id), or null when the account is locked; the
 * account of the e-mail, if there is one (whatever the reservation); and whether it has a second
 * factor.
 */
export async function reserveLoginAttempt(
  db: Db,
  clock: Clock,
  attempt: { email: string; ip: string | undefined },
  limit: { max: number; windowMs: number },
): Promise<{ reservation: string | null; user: UserRow | undefined; secondFactor: boolean }> {
  const now = clock.now();
  const since = new Date(now.getTime() - limit.windowMs);
  const reserved = db.$with('reserved').as(
    db
      .select({
        // Named apart from every users column: the select below names it unqualified.
        reservation: sql<
          string | null
        >`portolan_reserve_login(${attempt.email}, ${attempt.ip ?? null}, ${now.toISOString()}::timestamptz, ${since.toISOString()}::timestamptz, ${limit.max}::int)`.as(
          'reservation',
        ),
      })
      .from(sql`(select 1) as one`),
  );
  const [row] = await db
    .with(reserved)
    .select({
      reservation: reserved.reservation,
      user: users,
      // Whether the account has a second factor: read here, so a sign-in without one costs no
      // query more (the mfa module's tables, read in a join as the ownership rule allows).
      secondFactor: sql<boolean>`(exists (select 1 from ${userMfa} where ${userMfa.user_id} = ${users.id} and ${userMfa.totp_confirmed_at} is not null) or exists (select 1 from ${passkeys} where ${passkeys.user_id} = ${users.id}))`,
    })
    .from(reserved)
    .leftJoin(users, and(sql`lower(${users.email}) = ${attempt.email}`, isNull(users.deleted_at)))
    .limit(1);
  return {
    reservation: row?.reservation ?? null,
    user: row?.user ?? undefined,
    secondFactor: Boolean(row?.secondFactor),
  };
}

/** The deletion of a reservation, not yet run: the password was right, the attempt no failure. */
export const releaseQuery = (db: Db | Tx, reservation: string) =>
  db.delete(loginFailures).where(eq(loginFailures.id, reservation));

/** The password was right: the reserved attempt was not a failure. */
export async function releaseLoginAttempt(db: Db, reservation: string): Promise<void> {
  await releaseQuery(db, reservation);
}
