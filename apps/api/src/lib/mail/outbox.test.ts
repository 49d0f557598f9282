import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { mailOutbox } from '../../db/schema/index.ts';
import { minutes } from '../clock.ts';
import { startJob, type RunningJob } from '../jobs.ts';
import { enqueueMail, MailOutbox } from './outbox.ts';
import { createSmtpTransport, type MailTransport } from './transport.ts';

/**
 * The outbox's job, started in the runner, does not poll: a queued message wakes it through its NOTIFY, and it
 * sleeps only until the earliest retry due later (at most a minute), or until woken when none is.
 * Runs on both engines.
 */
describe('the mail outbox job', () => {
  let t: TestApp;
  let worker: { outbox: MailOutbox; job: RunningJob } | null = null;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await worker?.job.stop();
    worker?.outbox.close();
    worker = null;
    // Nothing one test queued is left pending for the next.
    await t.ctx.db
      .update(mailOutbox)
      .set({ status: 'failed' })
      .where(eq(mailOutbox.status, 'pending'));
  });
  afterAll(() => t.close());

  const smtp = () => createSmtpTransport(`smtp://127.0.0.1:${t.mailbox.port}`, 'test@example.com');

  /** An outbox of its own on the test's database, its job started (the app's own is not). */
  async function started(transport: MailTransport = smtp()) {
    const outbox = new MailOutbox(t.ctx.database, transport, t.clock, t.app.log);
    worker = { outbox, job: startJob(outbox.job, t.app.log) };
    await outbox.listening(2_000);
    // The run of the start is over: whatever comes next comes from what the test does.
    await outbox.drain();
    return outbox;
  }

  const mail = (to: string) => ({ to, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' });

  /** Queues like a module does, in a transaction of its own, without kicking any worker. */
  const queue = (to: string, dueInMs = 0) =>
    t.ctx.db.transaction(async (tx) => {
      await enqueueMail(tx, t.clock, mail(to));
      if (dueInMs > 0) {
        await tx
          .update(mailOutbox)
          .set({ next_attempt_at: new Date(t.clock.now().getTime() + dueInMs) })
          .where(eq(mailOutbox.to_address, to));
      }
    });

  it('wakes on the NOTIFY of a queued message, and sets no timer while nothing is pending', async () => {
    const w = await started();
    expect(w.wakesAt).toBeNull();
    const to = `woken.${Date.now()}@example.com`;
    await queue(to);
    // Well within the old two-second poll: the NOTIFY woke it.
    await vi.waitFor(() => expect(t.mailbox.to(to)).toHaveLength(1), {
      timeout: 1_500,
      interval: 20,
    });
    expect(await w.drain()).toBe(0);
    expect(w.wakesAt).toBeNull();
    const [row] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to_address, to));
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('sleeps until the earliest retry due later, and never longer than a minute', async () => {
    const w = await started();
    const soon = `soon.${Date.now()}@example.com`;
    await queue(soon, 30_000);
    const soonAt = new Date(t.clock.now().getTime() + 30_000);
    await vi.waitFor(() => expect(w.wakesAt).toEqual(soonAt), { timeout: 2_000, interval: 20 });
    // A later one does not move the wake-up; once the earlier one is gone, the cap applies.
    await queue(`later.${Date.now()}@example.com`, minutes(10));
    await w.drain();
    expect(w.wakesAt).toEqual(soonAt);
    await t.ctx.db
      .update(mailOutbox)
      .set({ status: 'failed' })
      .where(eq(mailOutbox.to_address, soon));
    w.kick();
    await w.drain();
    expect(w.wakesAt).toEqual(new Date(t.clock.now().getTime() + 60_000));
    expect(t.mailbox.to(soon)).toHaveLength(0);
  });

  it('retries a failed delivery when it falls due, woken by its timer', async () => {
    // The mail server refuses the first message, then takes them (a local double of it).
    const real = smtp();
    let refusals = 1;
    const flaky: MailTransport = {
      kind: 'smtp',
      async send(message) {
        if (refusals-- > 0) throw new Error('421 try again later');
        await real.send(message);
      },
      close: () => real.close(),
    };
    const w = await started(flaky);
    const to = `retried.${Date.now()}@example.com`;
    await queue(to);
    // The first attempt failed: the retry is due 2 s later (backoff 2^attempts s).
    const [failed] = await vi.waitFor(async () => {
      const rows = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to_address, to));
      expect(rows[0]).toMatchObject({ attempts: 1, status: 'pending' });
      expect(rows[0]!.last_error).toContain('421');
      return rows;
    });
    await vi.waitFor(() => expect(w.wakesAt).toEqual(failed!.next_attempt_at), { interval: 20 });
    // Time passes (on the app's clock too): the timer fires and the message goes.
    t.clock.advance(2_000);
    await vi.waitFor(() => expect(t.mailbox.to(to)).toHaveLength(1), {
      timeout: 5_000,
      interval: 50,
    });
  });
});
