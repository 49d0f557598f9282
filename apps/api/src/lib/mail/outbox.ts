import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../../db/client.ts';
import type { ChannelListener } from '../../db/listen.ts';
import { mailOutbox } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import type { MailTransport, OutgoingMail } from './transport.ts';

const MAX_ATTEMPTS = 8;
const BATCH = 20;

/** Queue a message inside the caller's transaction: it is sent only if the change commits. */
export async function enqueueMail(tx: Db | Tx, clock: Clock, mail: OutgoingMail): Promise<void> {
  const now = clock.now();
  await tx.insert(mailOutbox).values({
    created_at: now,
    next_attempt_at: now,
    to_address: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
  });
}

/** The NOTIFY channel every INSERT into mail_outbox announces itself on (migration 0010). */
export const OUTBOX_CHANNEL = 'portolan_outbox';

export interface OutboxOptions {
  /**
   * The longest the worker sleeps while a retry is pending: a safety net (a row another instance
   * claimed and never finished is due again a minute later), not the way new mail is found.
   */
  maxSleepMs?: number;
  /** After a failed run (the database is down) the next one comes this much later. */
  retryAfterFailureMs?: number;
  /** start() waits this long at most for the first LISTEN (it keeps trying on its own). */
  readyTimeoutMs?: number;
}

/** Never sleep less than this: a row due now but held by another worker's claim is not spun on. */
const MIN_SLEEP_MS = 250;
/** During an outage, one log line at the start and then one per this many failed runs. */
const LOG_FAILURE_EVERY = 12;

/**
 * Delivers queued mail. Rows are claimed with FOR UPDATE SKIP LOCKED so several instances can
 * run workers on one PostgreSQL; a failure is retried with exponential backoff.
 *
 * A started worker does not poll: it wakes on the NOTIFY every queued message sends (each instance
 * listens; they share the work through SKIP LOCKED), when its own instance queues one (`kick`),
 * when its LISTEN begins again after a lost connection (whatever was sent meanwhile was missed),
 * and otherwise sleeps until the earliest retry that is due later, or for ever when none is.
 */
export class OutboxWorker {
  private timer: NodeJS.Timeout | null = null;
  private timerDueAt: Date | null = null;
  private listener: ChannelListener | null = null;
  private running: Promise<void> | null = null;
  /** A wake-up came during a run: run again before sleeping (the run may have missed its rows). */
  private again = false;
  private started = false;
  private stopped = false;
  /** Runs failed in a row (the database is unreachable); 0 when the last one worked. */
  private failedRuns = 0;

  private readonly database: Database;
  private readonly db: Db;
  private readonly transport: MailTransport;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly options: Required<OutboxOptions>;

  constructor(
    database: Database,
    transport: MailTransport,
    clock: Clock,
    log: FastifyBaseLogger,
    options: OutboxOptions = {},
  ) {
    this.database = database;
    this.db = database.db;
    this.transport = transport;
    this.clock = clock;
    this.log = log;
    this.options = {
      maxSleepMs: 60_000,
      retryAfterFailureMs: 5_000,
      readyTimeoutMs: 2_000,
      ...options,
    };
  }

  /** Listens for queued mail and delivers what is due; resolves once listening (or soon after). */
  async start(): Promise<void> {
    if (this.started || this.stopped) return;
    this.started = true;
    const listener = this.database.listen(OUTBOX_CHANNEL, {
      notify: () => this.kick(),
      // Listening (again): anything queued while no LISTEN was in place is caught up now.
      listening: () => this.kick(),
    });
    this.listener = listener;
    this.kick();
    await Promise.race([
      listener.ready,
      new Promise((resolve) => setTimeout(resolve, this.options.readyTimeoutMs).unref()),
    ]);
  }

  /** Deliver soon (after a message was queued), without waiting for a NOTIFY. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runUntilQuiet().finally(() => {
      this.running = null;
    });
  }

  /** When the sleeping worker wakes by itself next, or null when only a NOTIFY or kick will. */
  get wakesAt(): Date | null {
    return this.timerDueAt;
  }

  /**
   * Runs until no wake-up came meanwhile, then (started) sets the timer. Never rejects: a run
   * that fails (the database is down) is tried again after retryAfterFailureMs.
   */
  private async runUntilQuiet(): Promise<void> {
    for (;;) {
      this.again = false;
      try {
        await this.sendDue();
        if (this.failedRuns > 0) {
          this.log.info({ failedRuns: this.failedRuns }, 'mail outbox running again');
          this.failedRuns = 0;
        }
        if (this.again) continue;
        if (this.started && !this.stopped) await this.sleepUntilNextRetry();
        // A NOTIFY that came while the timer was worked out may be of a row the run missed.
        if (!this.again || this.stopped) return;
      } catch (err) {
        if (this.failedRuns++ % LOG_FAILURE_EVERY === 0) {
          this.log.error({ err, failedRuns: this.failedRuns }, 'mail outbox run failed');
        }
        if (this.started && !this.stopped) this.wakeIn(this.options.retryAfterFailureMs);
        return;
      }
    }
  }

  /** Sets the timer for the earliest pending message due later (capped), or clears it. */
  private async sleepUntilNextRetry(): Promise<void> {
    const [row] = await this.db
      .select({ at: sql`min(${mailOutbox.next_attempt_at})`.mapWith(mailOutbox.next_attempt_at) })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'pending'));
    if (row?.at == null) {
      this.wakeIn(null);
      return;
    }
    const delay = row.at.getTime() - this.clock.now().getTime();
    this.wakeIn(Math.min(this.options.maxSleepMs, Math.max(MIN_SLEEP_MS, delay)));
  }

  private wakeIn(ms: number | null): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerDueAt = null;
    if (ms === null || this.stopped) return;
    this.timerDueAt = new Date(this.clock.now().getTime() + ms);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDueAt = null;
      this.kick();
    }, ms);
    // The HTTP server keeps the process alive; a sleeping worker alone should not.
    this.timer.unref();
  }

  /** Wait for a run in flight, then send everything due now; returns how many were sent. */
  async drain(): Promise<number> {
    await this.running;
    return this.sendDue();
  }

  private async sendDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await this.claim();
      if (batch.length === 0) return sent;
      for (const row of batch) {
        try {
          await this.transport.send({
            to: row.to_address,
            subject: row.subject,
            text: row.text_body,
            html: row.html_body,
          });
          await this.db
            .update(mailOutbox)
            .set({ status: 'sent', sent_at: this.clock.now(), last_error: null })
            .where(eq(mailOutbox.id, row.id));
          sent++;
        } catch (err) {
          const attempts = row.attempts; // already incremented by claim()
          const failed = attempts >= MAX_ATTEMPTS;
          this.log.warn({ err, to: row.to_address, attempts }, 'mail delivery failed');
          await this.db
            .update(mailOutbox)
            .set({
              status: failed ? 'failed' : 'pending',
              last_error: String((err as Error).message ?? err).slice(0, 500),
              next_attempt_at: new Date(this.clock.now().getTime() + 2 ** attempts * 1000),
            })
            .where(eq(mailOutbox.id, row.id));
        }
      }
    }
  }

  private async claim() {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.next_attempt_at, now)))
        .orderBy(asc(mailOutbox.created_at))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      // Push the claimed rows into the future so another worker leaves them alone meanwhile.
      return tx
        .update(mailOutbox)
        .set({
          attempts: sql`${mailOutbox.attempts} + 1`,
          next_attempt_at: new Date(now.getTime() + 60_000),
        })
        .where(
          inArray(
            mailOutbox.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeIn(null);
    await this.listener?.close();
    await this.running;
    this.transport.close();
  }
}
