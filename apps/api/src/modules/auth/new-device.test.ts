import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  registerActiveUser,
  STRONG_PASSWORD,
  type TestApp,
} from '../../../test/support/app.ts';
import { observeStatements } from '../../../test/support/statements.ts';
import { deviceKey } from '../../lib/user-agent.ts';

const LAPTOP =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const LAPTOP_UPDATED = LAPTOP.replace('Chrome/156', 'Chrome/157');
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const SUBJECT = 'New sign-in to your Portolan account';

/**
 * Issue 20 item 6: a sign-in from a device the account has not been used on e-mails its owner,
 * in the statement that opens the session (no round trip more). Runs on both engines.
 */
describe('the new-device sign-in notice', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signInFrom = async (email: string, userAgent?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      headers: userAgent ? { 'user-agent': userAgent } : {},
      payload: { email, password: STRONG_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
  };
  /** The notices the account's owner has received so far (after delivering what is queued). */
  const notices = async (email: string) => {
    await t.ctx.outbox.drain();
    return t.mailbox.to(email).filter((m) => m.subject === SUBJECT);
  };

  it('tells the owner of a sign-in from a new device, once, and not of a known one', async () => {
    const { email } = await registerActiveUser(t);
    // The first device with a User-Agent only becomes known.
    await signInFrom(email, LAPTOP);
    expect(await notices(email)).toHaveLength(0);

    await signInFrom(email, PHONE);
    const [notice, ...more] = await notices(email);
    expect(more).toEqual([]);
    expect(notice!.text).toContain('Safari 17 on iOS 17.4, from 127.0.0.1');
    expect(notice!.text).toContain('/forgot-password');
    expect(notice!.text).toContain('/ps/profile');

    // Known devices, an updated browser included, tell nothing.
    await signInFrom(email, PHONE);
    await signInFrom(email, LAPTOP_UPDATED);
    expect(await notices(email)).toHaveLength(1);
  });

  it('takes a script (no usable User-Agent) for no device, and tells nothing of it', async () => {
    const { email } = await registerActiveUser(t);
    await signInFrom(email, LAPTOP);
    await signInFrom(email);
    await signInFrom(email, 'curl/8.5.0');
    expect(await notices(email)).toHaveLength(0);
    expect(deviceKey('curl/8.5.0')).toBeNull();
    expect(deviceKey(undefined)).toBeNull();
    expect(deviceKey(LAPTOP)).toBe(deviceKey(LAPTOP_UPDATED));
    expect(deviceKey(LAPTOP)).not.toBe(deviceKey(PHONE));
  });

  it('opens the session and queues the notice in one statement', async () => {
    const { email } = await registerActiveUser(t);
    await signInFrom(email, LAPTOP);
    const log = observeStatements(t.ctx.database);
    try {
      await signInFrom(email, PHONE);
      const writes = log.statements.filter((q) => /insert into "?mail_outbox/i.test(q));
      expect(writes).toHaveLength(1);
      expect(writes[0]).toMatch(/insert into "sessions"/i);
    } finally {
      log.restore();
    }
    expect(await notices(email)).toHaveLength(1);
  });
});
