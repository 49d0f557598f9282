import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginFailures, loginThrottles } from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';

/**
 * Failed sign-ins are kept in the database so the lockout holds across instances.
 *
 * An attempt is reserved *before* the password is checked: under a row lock per e-mail, the
 * failures of the window are counted and, below the limit, this attempt is recorded as one.
 * Guesses sent in parallel are so counted one at a time, and no more than `max` passwords are
 * ever checked per account and window. The lock is held for these few statements only, never
 * during the (slow) password check; a right password releases its reservation afterwards.
 *
 * Returns the reservation (a login_failures row id), or null when the account is locked.
 */
export async function reserveLoginAttempt(
  db: Db,
  clock: Clock,
  attempt: { email: string; ip: string | undefined },
  limit: { max: number; windowMs: number },
): Promise<string | null> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    await tx
      .insert(loginThrottles)
      .values({ email: attempt.email, created_at: now })
      .onConflictDoNothing();
    await tx
      .select({ email: loginThrottles.email })
      .from(loginThrottles)
      .where(eq(loginThrottles.email, attempt.email))
      .for('update');
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(loginFailures)
      .where(
        and(
          eq(loginFailures.email, attempt.email),
          gt(loginFailures.created_at, new Date(now.getTime() - limit.windowMs)),
        ),
      );
    if ((row?.n ?? 0) >= limit.max) return null;
    const [reserved] = await tx
      .insert(loginFailures)
      .values({ email: attempt.email, ip: attempt.ip ?? null, created_at: now })
      .returning({ id: loginFailures.id });
    return reserved!.id;
  });
}

/** The password was right: the reserved attempt was not a failure. */
export async function releaseLoginAttempt(db: Db, reservation: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.id, reservation));
}
