import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerActiveUser, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene } from '../../../test/support/tenants.ts';
import { payWith, unsubscribedOrganization } from './test-flow.ts';

/**
 * Issue 18 item 8: with PORT=3101 and no PUBLIC_URL, the links the product builds point at the
 * server's own port (they pointed at :3000, so the sandbox's return after paying was refused).
 */
describe('links without PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PORT: '3101' });
  });
  afterAll(() => t.close());

  it('point at the port the server listens on: e-mails and the sandbox checkout’s return', async () => {
    expect(t.ctx.config.publicUrl).toBe('http://localhost:3101');

    const { email } = await registerActiveUser(t);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/password/reset/',
      payload: { email },
    });
    expect(reset.statusCode).toBeLessThan(300);
    const mail = await t.mailTo(email);
    expect(mail.text).toContain('http://localhost:3101');
    expect(mail.html).toContain('http://localhost:3101');
    expect(mail.text + mail.html).not.toContain('localhost:3000');

    const s = await createTenantScene(t);
    const org = await unsubscribedOrganization(t, s.people.OWNER);
    const { checkout, paid } = await payWith(t, s.people.OWNER, org, '4242 4242 4242 4242');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(
      `http://localhost:3101/ps/organization-settings/${org}/billing/subscription?checkout=${checkout.id}`,
    );
  });
});
