import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
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

/**
 * Delivers queued mail. Rows are claimed with FOR UPDATE SKIP LOCKED so several instances can
 * run workers on one PostgreSQL; a failure is retried with exponential backoff.
 */
export class OutboxWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  /** Runs failed in a row (the database is unreachable); 0 when the last one worked. */
  private failedRuns = 0;

  private readonly db: Db;
  private readonly transport: MailTransport;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly intervalMs: number;

  constructor(
    db: Db,
    transport: MailTransport,
    clock: Clock,
    log: FastifyBaseLogger,
    intervalMs = 2_000,
  ) {
    this.db = db;
    this.transport = transport;
    this.clock = clock;
    this.log = log;
    this.intervalMs = intervalMs;
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.kick();
      if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Deliver soon (after a message was queued), without waiting for the next tick. */
  kick(): void {
    if (this.stopped || this.running) return;
    this.running = this.sendDue()
      .then((sent) => {
        if (this.failedRuns > 0) {
          this.log.info({ failedRuns: this.failedRuns }, 'mail outbox running again');
          this.failedRuns = 0;
        }
        return sent;
      })
      .catch((err) => {
        // The timer keeps ticking: a run that fails (the database is down) is simply tried again.
        // During a long outage, one line at the start and then one a minute, not one per tick.
        if (this.failedRuns++ % 30 === 0) {
          this.log.error({ err, failedRuns: this.failedRuns }, 'mail outbox run failed');
        }
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
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
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.transport.close();
  }
}
