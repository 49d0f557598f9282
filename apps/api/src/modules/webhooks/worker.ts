import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { ChannelListener } from '../../db/listen.ts';
import type { Job, JobPlan } from '../../lib/jobs.ts';
import { claimDueDeliveries, nextDeliveryAt, type ClaimedDelivery } from './claim.ts';
import { recordOutcome } from './outcome.ts';
import { postWebhook, type AttemptResult } from './send.ts';
import { messageBody, signedHeaders } from './signing.ts';

/** A claim lasts this long: well beyond an attempt (WEBHOOK_TIMEOUT_MS), so it never runs out mid-attempt. */
export const WEBHOOK_LEASE_MS = 60_000;
/** An attempt's whole exchange (connect, send, answer) must fit in this. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Deliveries claimed at once, and sent side by side. */
const BATCH = 10;
/** The NOTIFY channel every new delivery announces itself on (migration 0022). */
const WEBHOOKS_CHANNEL = 'portolan_webhooks';
/** The longest sleep: a safety net (a lease run out, an endpoint switched on elsewhere). */
const MAX_SLEEP_MS = 60_000;
/** Never sleep less: a delivery due now but under another worker's claim is not spun on. */
const MIN_SLEEP_MS = 250;
/** During an outage, one log line at the start and then one per this many failed runs. */
const LOG_FAILURE_EVERY = 12;

/**
 * Delivers webhooks (issue 21 item 2), as the mail outbox delivers mail (lib/mail/outbox.ts): its
 * `job` runs in the periodic runner of every instance that starts workers, wakes on the NOTIFY
 * each new delivery sends, on its own instance's requests (`kick`: a test event, a retry), when
 * its LISTEN begins again, and otherwise sleeps until the next delivery is due. Each run claims
 * due deliveries (claim.ts), sends them, and records each outcome (outcome.ts), until none is due.
 * Without a runner (tests, scripts) `kick` delivers at once and `drain` sends what is due.
 */
export class WebhookWorker {
  readonly job: Job;
  private runnerKick: (() => void) | null = null;
  private listener: ChannelListener | null = null;
  /** The run in flight: the runner's, or a kick's without a runner. */
  private inFlight: Promise<unknown> = Promise.resolve();
  /** Aborts attempts of runs outside the runner when the app closes. */
  private readonly closing = new AbortController();
  private readonly ctx: AppContext;
  private readonly log: FastifyBaseLogger;

  constructor(ctx: AppContext, log: FastifyBaseLogger) {
    this.ctx = ctx;
    this.log = log;
    this.job = {
      name: 'webhooks',
      everyMs: MAX_SLEEP_MS,
      retryAfterFailureMs: 5_000,
      logEvery: LOG_FAILURE_EVERY,
      wake: (kick) => {
        this.runnerKick = kick;
        this.listener = ctx.database.listen(WEBHOOKS_CHANNEL, { notify: kick, listening: kick });
        return async () => {
          this.runnerKick = null;
          await this.listener?.close();
          this.listener = null;
        };
      },
      run: (signal) => this.track(this.deliverAndPlan(signal)),
    };
  }

  /** Deliver soon (a test event or a retry was asked for here). */
  kick(): void {
    if (this.runnerKick) return this.runnerKick();
    void this.track(this.inFlight.then(() => this.deliverDue(this.closing.signal))).catch((err) => {
      if (!this.closing.signal.aborted) this.log.error({ err }, 'webhook delivery run failed');
    });
  }

  /** Wait for a run in flight, then send everything due now; answers how many attempts were made. */
  async drain(): Promise<number> {
    for (;;) {
      const current = this.inFlight;
      await current.catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
      if (current === this.inFlight) break;
    }
    return this.deliverDue(this.closing.signal);
  }

  /** At app close: attempts outside the runner stop (unrecorded: their leases run out). */
  async close(): Promise<void> {
    this.closing.abort();
    await this.inFlight.catch(() => undefined);
  }

  /** Claims what is due now (a lease each), without sending it: what a run does first. */
  claim(): Promise<ClaimedDelivery[]> {
    return claimDueDeliveries(this.ctx.db, this.ctx.clock.now(), {
      leaseMs: WEBHOOK_LEASE_MS,
      limit: BATCH,
    });
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.inFlight = run;
    return run;
  }

  private async deliverAndPlan(signal: AbortSignal): Promise<JobPlan> {
    await this.deliverDue(signal);
    const next = await nextDeliveryAt(this.ctx.db);
    if (next === null) return { nextInMs: null };
    const delay = next.getTime() - this.ctx.clock.now().getTime();
    return { nextInMs: Math.min(MAX_SLEEP_MS, Math.max(MIN_SLEEP_MS, delay)) };
  }

  /** Claim, send and record until nothing is due; the batch's attempts go side by side. */
  private async deliverDue(signal: AbortSignal): Promise<number> {
    let attempts = 0;
    for (;;) {
      if (signal.aborted) return attempts;
      const batch = await this.claim();
      if (batch.length === 0) return attempts;
      const settled = await Promise.allSettled(batch.map((d) => this.attempt(d, signal)));
      attempts += settled.filter((s) => s.status === 'fulfilled').length;
      const failure = settled.find((s) => s.status === 'rejected');
      // The worker stopped, or the database failed: the leases run out and the deliveries go again.
      if (failure) {
        if (signal.aborted) return attempts;
        throw failure.reason;
      }
      if (settled.some((s) => s.status === 'fulfilled' && s.value)) this.ctx.outbox.kick();
    }
  }

  /** One attempt of a claimed delivery and its outcome; answers whether mail was queued. */
  private async attempt(delivery: ClaimedDelivery, signal: AbortSignal): Promise<boolean> {
    const attemptedAt = this.ctx.clock.now();
    const { webhooks } = this.ctx.config;
    let result: AttemptResult;
    try {
      const message = {
        id: delivery.event.id,
        type: delivery.event.type,
        at: delivery.event.created_at,
        data: delivery.event.data,
      };
      const body = messageBody(message);
      const headers = signedHeaders(
        message,
        body,
        this.secretsOf(delivery, attemptedAt),
        attemptedAt,
      );
      result = await postWebhook(delivery.endpoint.url, body, headers, {
        allowPrivateTargets: webhooks.allowPrivateTargets,
        timeoutMs: WEBHOOK_TIMEOUT_MS,
        userAgent: `${this.ctx.config.brand}-Webhooks/${this.ctx.config.version}`,
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw err;
      this.log.error({ err, delivery: delivery.id }, 'webhook attempt failed before sending');
      result = {
        statusCode: null,
        durationMs: 0,
        excerpt: '',
        error: 'The message could not be prepared.',
      };
    }
    return recordOutcome(this.ctx, delivery, attemptedAt, result);
  }

  /** The endpoint's secret, and the previous one while it still signs (a day after a rotation). */
  private secretsOf(delivery: ClaimedDelivery, at: Date): string[] {
    const { id, secret, previous_secret, previous_secret_until } = delivery.endpoint;
    const open = (sealed: string) => this.ctx.secretBox.open(sealed, id).toString('utf8');
    const previousLive =
      previous_secret !== null &&
      previous_secret_until !== null &&
      previous_secret_until.getTime() > at.getTime();
    return [open(secret), ...(previousLive ? [open(previous_secret)] : [])];
  }
}

/** Each app's worker, made with its webhooks module (index.ts) and found by its context. */
const workers = new WeakMap<AppContext, WebhookWorker>();

export function webhookWorker(ctx: AppContext, log?: FastifyBaseLogger): WebhookWorker {
  let worker = workers.get(ctx);
  if (!worker) {
    if (!log) throw new Error('the webhooks module makes the worker, with its app’s logger');
    worker = new WebhookWorker(ctx, log);
    workers.set(ctx, worker);
  }
  return worker;
}
