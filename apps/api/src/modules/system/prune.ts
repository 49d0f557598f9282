import { lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { rateLimits } from '../../db/schema/index.ts';
import { hours, minutes } from '../../lib/clock.ts';
import { startJob, type Job, type RunningJob } from '../../lib/jobs.ts';
import { pruneOutbox } from '../../lib/mail/prune.ts';
import { deleteInBatches, type PruneOptions } from '../../lib/prune-batches.ts';
import { pruneAuth, type AuthPruned } from '../auth/index.ts';
import { pruneEvents } from '../events/index.ts';
import { pruneWebauthnChallenges } from '../mfa/index.ts';
import { pruneSigningKeys } from '../module-launch/index.ts';
import { pruneSecurityLog } from '../security-log/index.ts';
import { fileStorageFor, pruneUploads, type FileStorage } from '../uploads/index.ts';

/**
 * The pruning job: what no rule reads any more is deleted, each kind by the module that owns its
 * table and knows how long it matters (auth: sessions, login failures, one-time codes; the mail
 * outbox; uploads), plus the rate limiter's spent windows.
 *
 * Every instance runs it: each delete takes its rows in bounded batches FOR UPDATE SKIP LOCKED,
 * so runs that meet share the work and a row is deleted (an upload's file too) exactly once.
 */

export const PRUNE_INTERVAL_MS = hours(1);
/** The first run, a little after start (not in the middle of a start-up's own work). */
export const PRUNE_FIRST_DELAY_MS = minutes(1);

export type PruneContext = Pick<AppContext, 'db' | 'clock'>;

export interface Pruned extends AuthPruned {
  mail: number;
  rateLimits: number;
  uploads: number;
  securityEvents: number;
  webauthnChallenges: number;
  events: number;
  signingKeys: number;
}

export interface PruneDeps extends PruneOptions {
  /** Where the uploads' files live. */
  uploads: FileStorage;
  log?: FastifyBaseLogger;
}

/** A window whose reset time has passed counts nothing: a new request starts a new one. */
const pruneRateLimits = (ctx: PruneContext, now: Date, options: PruneOptions) =>
  deleteInBatches(ctx.db, rateLimits, rateLimits.key, lt(rateLimits.reset_at, now), options);

/**
 * One run at the clock's time. A kind that fails (the upload storage is down) does not keep the
 * others from running; the first failure is thrown once all have run.
 */
export async function pruneOnce(ctx: PruneContext, deps: PruneDeps): Promise<Pruned> {
  const now = ctx.clock.now();
  const options: PruneOptions = { batch: deps.batch, signal: deps.signal };
  const failures: unknown[] = [];
  const attempt = async <T>(kind: string, run: () => Promise<T>, none: T): Promise<T> => {
    if (deps.signal?.aborted) return none;
    try {
      return await run();
    } catch (err) {
      deps.log?.warn({ err, kind }, 'pruning failed');
      failures.push(err);
      return none;
    }
  };
  const auth = await attempt('auth', () => pruneAuth(ctx.db, now, options), {
    sessions: 0,
    loginFailures: 0,
    loginThrottles: 0,
    codes: 0,
    oidcLogins: 0,
    mfaChallenges: 0,
  });
  const pruned: Pruned = {
    ...auth,
    mail: await attempt('mail', () => pruneOutbox(ctx.db, now, options), 0),
    rateLimits: await attempt('rate limits', () => pruneRateLimits(ctx, now, options), 0),
    uploads: await attempt('uploads', () => pruneUploads(ctx.db, deps.uploads, now, options), 0),
    securityEvents: await attempt('security log', () => pruneSecurityLog(ctx.db, now, options), 0),
    webauthnChallenges: await attempt(
      'passkey challenges',
      () => pruneWebauthnChallenges(ctx.db, now, options),
      0,
    ),
    events: await attempt('events', () => pruneEvents(ctx.db, now, options), 0),
    signingKeys: await attempt(
      'launch signing keys',
      () => pruneSigningKeys(ctx.db, now, options),
      0,
    ),
  };
  if (failures.length > 0) throw failures[0];
  return pruned;
}

/** The pruning job, declared for the runner (lib/jobs.ts): hourly, the first a minute after start. */
export function pruneJob(
  ctx: PruneContext & Pick<AppContext, 'config'>,
  log?: FastifyBaseLogger,
): Job {
  const uploads = fileStorageFor(ctx.config);
  return {
    name: 'prune',
    everyMs: PRUNE_INTERVAL_MS,
    firstDelayMs: PRUNE_FIRST_DELAY_MS,
    run: async (signal) => {
      const pruned = await pruneOnce(ctx, { uploads, log, signal });
      const total = Object.values(pruned).reduce((sum, n) => sum + n, 0);
      if (total > 0) log?.info({ pruned }, 'pruned');
    },
  };
}

/** The pruning job on its own (tests). */
export function startPruneJob(
  ctx: PruneContext & Pick<AppContext, 'config'>,
  options: { log?: FastifyBaseLogger; intervalMs?: number; firstDelayMs?: number } = {},
): RunningJob {
  const job = pruneJob(ctx, options.log);
  return startJob(
    {
      ...job,
      everyMs: options.intervalMs ?? PRUNE_INTERVAL_MS,
      firstDelayMs: options.firstDelayMs ?? PRUNE_FIRST_DELAY_MS,
    },
    options.log,
  );
}
