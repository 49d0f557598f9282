import { and, asc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../../db/client.ts';
import type { ChannelListener } from '../../db/listen.ts';
import { mailOutbox } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import type { Job, JobPlan } from '../jobs.ts';
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

/**
 * Queues `mail` when `when` holds, as a data-modifying CTE of a statement of the caller's: the
 * message commits with that statement, in the same round trip (sign-in's new-device notice).
 * `when` is read in the statement's snapshot: rows the statement itself writes are not seen.
 */
export function enqueueMailWhere(db: Db | Tx, clock: Clock, mail: OutgoingMail, when: SQL) {
  const now = clock.now().toISOString();
  return db.$with('queued_mail', { id: sql<string>`id` }).as(
    sql`insert into ${mailOutbox} (created_at, next_attempt_at, to_address, subject, text_body, html_body)
      select ${now}::timestamptz, ${now}::timestamptz, ${mail.to}, ${mail.subject}, ${mail.text}, ${mail.html}
      where ${when} returning id`,
  );
}

/** The NOTIFY channel every INSERT into mail_outbox announces itself on (migration 0010). */
export const OUTBOX_CHANNEL = 'portolan_outbox';

export interface OutboxOptions {
  /**
   * The longest the job sleeps while a retry is pending: a safety net (a row another instance
   * claimed and never finished is due again a minute later), not the way new mail is found.
   */
  maxSleepMs?: number;
  /** After a failed run (the database is down) the next one comes this much later. */
  retryAfterFailureMs?: number;
}

/** Never sleep less than this: a row due now but held by another worker's claim is not spun on. */
const MIN_SLEEP_MS = 250;
/** During an outage, one log line at the start and then one per this many failed runs. */
const LOG_FAILURE_EVERY = 12;

/**
 * Delivers queued mail. Rows are claimed with FOR UPDATE SKIP LOCKED so several instances can
 * deliver from one PostgreSQL; a failure is retried with exponential backoff.
 *
 * Its `job` runs in the periodic runner (lib/jobs.ts) of every instance that starts workers, and
 * does not poll: it wakes on the NOTIFY every queued message sends (each instance listens; they
 * share the work through SKIP LOCKED), when its own instance queues one (`kick`), when its LISTEN
 * begins again after a lost connection (whatever was sent meanwhile was missed), and otherwise
 * sleeps until the earliest retry that is due later, or for ever when none is. Without a runner
 * (tests, scripts) `kick` delivers at once and `drain` sends what is due.
 */
export class MailOutbox {
  readonly job: Job;
  private runnerKick: (() => void) | null = null;
  private listener: ChannelListener | null = null;
  /** The run in flight: the runner's, or a kick's without a runner. */
  private inFlight: Promise<unknown> = Promise.resolve();
  private nextWake: Date | null = null;

  private readonly db: Db;
  private readonly transport: MailTransport;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;

  constructor(
    database: Database,
    transport: MailTransport,
    clock: Clock,
    log: FastifyBaseLogger,
    options: OutboxOptions = {},
  ) {
    this.db = database.db;
    this.transport = transport;
    this.clock = clock;
    this.log = log;
    const maxSleepMs = options.maxSleepMs ?? 60_000;
    this.job = {
      name: 'mail outbox',
      everyMs: maxSleepMs,
      retryAfterFailureMs: options.retryAfterFailureMs ?? 5_000,
      logEvery: LOG_FAILURE_EVERY,
      wake: (kick) => {
        this.runnerKick = kick;
        this.listener = database.listen(OUTBOX_CHANNEL, {
          notify: kick,
          // Listening (again): anything queued while no LISTEN was in place is caught up now.
          listening: kick,
        });
        return async () => {
          this.runnerKick = null;
          await this.listener?.close();
          this.listener = null;
        };
      },
      run: () => this.track(this.sendAndPlan(maxSleepMs)),
    };
  }

  /**
   * Resolves once the runner's LISTEN is in place, or after `timeoutMs` (it keeps trying on its
   * own; the first run catches up whatever was queued meanwhile).
   */
  async listening(timeoutMs: number): Promise<void> {
    if (!this.listener) return;
    await Promise.race([
      this.listener.ready,
      new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
  }

  /** Deliver soon (after a message was queued), without waiting for a NOTIFY. */
  kick(): void {
    if (this.runnerKick) return this.runnerKick();
    // No runner: deliver now, after the run in flight. A failure waits for the next kick.
    void this.track(this.inFlight.then(() => this.sendDue())).catch((err) =>
      this.log.error({ err }, 'mail outbox run failed'),
    );
  }

  /** When the runner runs the job next by itself, or null when only a NOTIFY or kick will. */
  get wakesAt(): Date | null {
    return this.nextWake;
  }

  /** Wait for a run in flight, then send everything due now; returns how many were sent. */
  async drain(): Promise<number> {
    // A wake-up during a run makes the runner run again right after it: wait for that one too.
    for (;;) {
      const current = this.inFlight;
      await current.catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
      if (current === this.inFlight) break;
    }
    return this.sendDue();
  }

  /** After the runner stopped: the transport's connections go. */
  close(): void {
    this.transport.close();
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.inFlight = run;
    return run;
  }

  /** One run of the job: what is due goes; then the next run waits for the earliest retry. */
  private async sendAndPlan(maxSleepMs: number): Promise<JobPlan> {
    await this.sendDue();
    const [row] = await this.db
      .select({ at: sql`min(${mailOutbox.next_attempt_at})`.mapWith(mailOutbox.next_attempt_at) })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'pending'));
    // `wakesAt` keeps the last plan while a run is under way (a NOTIFY's run changes nothing
    // about it until it has worked the next one out).
    if (row?.at == null) {
      this.nextWake = null;
      return { nextInMs: null };
    }
    const delay = row.at.getTime() - this.clock.now().getTime();
    const nextInMs = Math.min(maxSleepMs, Math.max(MIN_SLEEP_MS, delay));
    this.nextWake = new Date(this.clock.now().getTime() + nextInMs);
    return { nextInMs };
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
}
