import { and, eq, isNull, lt, notExists, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  loginFailures,
  loginThrottles,
  mfaChallenges,
  oidcLogins,
  oneTimeCodes,
  sessions,
} from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { deleteInBatches, type PruneOptions } from '../../lib/prune-batches.ts';

/**
 * What the sign-in tables keep, and for how long (the pruning job, modules/system/prune.ts).
 *
 * A session that ended, by its absolute expiry or by a revocation, answers exactly like a missing
 * one (401: its tokens live 12 hours at most anyway). Its row is kept a week after the end: the
 * user's data export lists recent sign-ins.
 */
export const ENDED_SESSION_RETENTION_MS = days(7);
/** The lockout reads 15 minutes of failures (FAILED_LOGIN_WINDOW_MS); a day is kept. */
export const LOGIN_FAILURE_RETENTION_MS = days(1);
/**
 * One-time code rows outlive every token that names them: an activation token lives a day
 * (ACTIVATION_TOKEN_TTL_MS), a password reset token 10 minutes, and reset mails are counted per
 * hour from the rows. Two days is past all of those.
 */
export const CODE_RETENTION_MS = days(2);

export interface AuthPruned {
  sessions: number;
  loginFailures: number;
  loginThrottles: number;
  codes: number;
  oidcLogins: number;
  mfaChallenges: number;
}

export async function pruneAuth(
  db: Db,
  now: Date,
  options: PruneOptions = {},
): Promise<AuthPruned> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const sessionCutoff = before(ENDED_SESSION_RETENTION_MS);
  const codeCutoff = before(CODE_RETENTION_MS);
  const failureCutoff = before(LOGIN_FAILURE_RETENTION_MS);

  const prunedSessions = await deleteInBatches(
    db,
    sessions,
    sessions.id,
    or(lt(sessions.expires_at, sessionCutoff), lt(sessions.revoked_at, sessionCutoff)),
    options,
  );
  const prunedFailures = await deleteInBatches(
    db,
    loginFailures,
    loginFailures.id,
    lt(loginFailures.created_at, failureCutoff),
    options,
  );
  // An e-mail's throttle row is only the lock its sign-ins queue on: once no failure of it is
  // left, it goes too (the next sign-in makes it again). One a sign-in holds is skipped.
  const prunedThrottles = await deleteInBatches(
    db,
    loginThrottles,
    loginThrottles.email,
    and(
      lt(loginThrottles.created_at, failureCutoff),
      notExists(
        db
          .select({ id: loginFailures.id })
          .from(loginFailures)
          .where(eq(loginFailures.email, loginThrottles.email)),
      ),
    ),
    options,
  );
  // A row a token may still name is kept: an account's unused activation code stays while the
  // account waits for activation, since each sign-in hands out a new token for that same row.
  // Password reset codes and blank codes are named only by tokens signed when they were made;
  // an e-mail change code lives its 10 minutes.
  const prunedCodes = await deleteInBatches(
    db,
    oneTimeCodes,
    oneTimeCodes.id,
    or(
      lt(oneTimeCodes.consumed_at, codeCutoff),
      and(
        lt(oneTimeCodes.created_at, codeCutoff),
        or(
          eq(oneTimeCodes.purpose, 'password_reset'),
          eq(oneTimeCodes.purpose, 'email_change'),
          isNull(oneTimeCodes.user_id),
        ),
      ),
    ),
    options,
  );
  // Google sign-ins in progress: single use and refused once expired.
  const prunedOidc = await deleteInBatches(
    db,
    oidcLogins,
    oidcLogins.state,
    lt(oidcLogins.expires_at, now),
    options,
  );
  // Sign-ins waiting for a second factor: refused once expired.
  const prunedChallenges = await deleteInBatches(
    db,
    mfaChallenges,
    mfaChallenges.id,
    lt(mfaChallenges.expires_at, now),
    options,
  );
  return {
    mfaChallenges: prunedChallenges,
    sessions: prunedSessions,
    loginFailures: prunedFailures,
    loginThrottles: prunedThrottles,
    codes: prunedCodes,
    oidcLogins: prunedOidc,
  };
}
