// engine-parity: fifty creations at once against the limit of 20 endpoints (locking)
import { ErrorCode, MAX_WEBHOOK_ENDPOINTS } from '@portolan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { webhookEndpoints } from '../../db/schema/index.ts';

/**
 * The bound of MAX_WEBHOOK_ENDPOINTS endpoints per organization holds when creations race: the
 * count is taken under the organization's row lock. Runs on both engines.
 */
describe('the bound of webhook endpoints per organization', () => {
  let t: TestApp;
  let s: TenantScene;
  const url = () => `/v1/organizations/${s.orgId}/webhooks/`;
  const stored = async () =>
    (
      await t.ctx.db
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.organization_id, s.orgId))
    )[0]!.n;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  it(`makes exactly ${MAX_WEBHOOK_ENDPOINTS} of 50 parallel creations, the rest 409, no 5xx`, async () => {
    const people = [s.people.OWNER, s.people.ADMIN];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.send('POST', url(), people[i % 2]!, {
          url: `https://hooks.example.com/${i}`,
          events: ['member.added'],
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 201)).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    expect(statuses.filter((c) => c === 409)).toHaveLength(50 - MAX_WEBHOOK_ENDPOINTS);
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json()).toMatchObject({
        code: ErrorCode.WEBHOOK_LIMIT,
        details: { limit: MAX_WEBHOOK_ENDPOINTS },
      });
    }
    expect(await stored()).toBe(MAX_WEBHOOK_ENDPOINTS);
  });

  it('frees a place with each deletion, once, even in parallel', async () => {
    const list = await s.send('GET', url(), s.people.OWNER);
    const [first] = list.json().results as { id: string }[];
    expect((await s.send('DELETE', `${url()}${first!.id}/`, s.people.OWNER)).statusCode).toBe(204);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        s.send('POST', url(), s.people.ADMIN, {
          url: `https://hooks.example.com/again/${i}`,
          events: ['member.added'],
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await stored()).toBe(MAX_WEBHOOK_ENDPOINTS);
    // Another organization's endpoints are its own: its first is made.
    const theirs = await s.send(
      'POST',
      `/v1/organizations/${s.otherOrgId}/webhooks/`,
      s.people.STRANGER,
      {
        url: 'https://hooks.example.com/theirs',
        events: ['member.added'],
      },
    );
    expect(theirs.statusCode).toBe(201);
  });
});
