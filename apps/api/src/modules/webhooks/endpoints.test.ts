import {
  SUBSCRIBABLE_EVENT_TYPES,
  webhookEndpointCreatedSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
} from '@portolan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { emit } from './test-scene.ts';

/**
 * Issue 21 item 2, an organization's endpoints: made with a secret shown in the answer and kept
 * sealed, listed and read without it, changed, switched off and on, deleted with their
 * deliveries; bad input answers 400 naming the field and changes nothing.
 */
describe('webhook endpoints', () => {
  let t: TestApp;
  let s: TenantScene;
  const url = () => `/v1/organizations/${s.orgId}/webhooks/`;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const stored = async (id: string) =>
    (await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0];
  const endpointCount = async () =>
    (
      await t.ctx.db
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.organization_id, s.orgId))
    )[0]!.n;
  const create = async (body: object = {}) => {
    const res = await s.send('POST', url(), s.people.ADMIN, {
      url: 'https://erp.example.com/portolan/hooks?tenant=7',
      events: ['member.added', 'workspace.created'],
      description: 'ERP',
      ...body,
    });
    expect(res.statusCode).toBe(201);
    return webhookEndpointCreatedSchema.parse(res.json());
  };

  it('makes an endpoint with its secret, shown in the answer and sealed at rest', async () => {
    const made = await create();
    expect(made).toMatchObject({
      url: 'https://erp.example.com/portolan/hooks?tenant=7',
      events: ['member.added', 'workspace.created'],
      description: 'ERP',
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      previous_secret_until: null,
      created_at: t.clock.now().toISOString(),
    });
    expect(Buffer.from(made.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const row = await stored(made.id);
    expect(row!.secret).not.toContain(made.secret.slice(6));
    expect(row!.created_by).toBe(s.people.ADMIN.id);
    expect(t.ctx.secretBox.open(row!.secret, made.id).toString()).toBe(made.secret);
    // Sealed for this endpoint: another id cannot open it.
    expect(() => t.ctx.secretBox.open(row!.secret, s.orgId)).toThrow();

    const list = await s.send('GET', url(), s.people.OWNER);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(made.secret);
    const listed = webhookEndpointListSchema
      .parse(list.json())
      .results.find((e) => e.id === made.id);
    expect(listed).not.toHaveProperty('secret');
    const read = await s.send('GET', `${url()}${made.id}/`, s.people.OWNER);
    expect(read.body).not.toContain('whsec_');
    expect(read.json()).toEqual(listed);
  });

  it('takes every subscribable event type, and a description left out as empty', async () => {
    const made = await create({ events: SUBSCRIBABLE_EVENT_TYPES, description: undefined });
    expect(made.events).toEqual(SUBSCRIBABLE_EVENT_TYPES);
    expect(made.description).toBe('');
  });

  it('changes what is given; switched on again it forgets why and since when it failed', async () => {
    const made = await create();
    t.clock.advance(1_000);
    const change = (body: object) => s.send('PATCH', `${url()}${made.id}/`, s.people.OWNER, body);
    const changed = await change({
      url: 'https://erp.example.com/v2',
      events: ['invitation.sent'],
      description: 'ERP v2',
    });
    expect(changed.statusCode).toBe(200);
    expect(webhookEndpointSchema.parse(changed.json())).toMatchObject({
      url: 'https://erp.example.com/v2',
      events: ['invitation.sent'],
      description: 'ERP v2',
      enabled: true,
      modified_at: t.clock.now().toISOString(),
    });
    // As the worker leaves a failing endpoint it switched off:
    const since = new Date(t.clock.now().getTime() - 86_400_000);
    await t.ctx.db
      .update(webhookEndpoints)
      .set({ enabled: false, disabled_reason: 'Switched off: failing.', failing_since: since })
      .where(eq(webhookEndpoints.id, made.id));
    expect((await change({ description: 'still off' })).json()).toMatchObject({
      enabled: false,
      disabled_reason: 'Switched off: failing.',
      failing_since: since.toISOString(),
    });
    expect((await change({ enabled: true })).json()).toMatchObject({
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      description: 'still off',
    });
    expect((await change({ enabled: false })).json()).toMatchObject({
      enabled: false,
      disabled_reason: null,
    });
  });

  it('deletes an endpoint with its deliveries; the events stay', async () => {
    const made = await create();
    const eventId = await emit(t, s.orgId, 'member.added', 'member:gone');
    expect(
      await t.ctx.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpoint_id, made.id)),
    ).toHaveLength(1);
    const res = await s.send('DELETE', `${url()}${made.id}/`, s.people.OWNER);
    expect(res.statusCode).toBe(204);
    expect(await stored(made.id)).toBeUndefined();
    expect(
      await t.ctx.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpoint_id, made.id)),
    ).toHaveLength(0);
    expect(await t.ctx.db.select().from(events).where(eq(events.id, eventId))).toHaveLength(1);
    expect((await s.send('DELETE', `${url()}${made.id}/`, s.people.OWNER)).statusCode).toBe(404);
    expect((await s.send('GET', `${url()}${made.id}/`, s.people.OWNER)).statusCode).toBe(404);
    // Both in the organization's activities, the secret in neither.
    const log = await s.send(
      'GET',
      `/v1/organizations/${s.orgId}/activities/?limit=50`,
      s.people.OWNER,
    );
    const mine = log
      .json()
      .results.filter((a: { data: { webhook_id?: string } }) => a.data.webhook_id === made.id);
    expect(mine.map((a: { action: string }) => a.action).sort()).toEqual([
      'CREATE_WEBHOOK',
      'DELETE_WEBHOOK',
    ]);
    expect(JSON.stringify(mine)).not.toContain(made.secret);
  });

  it('refuses a bad endpoint with 400 naming the field, and writes nothing', async () => {
    const good = { url: 'https://erp.example.com/hooks', events: ['member.added'] };
    const before = await endpointCount();
    const cases: [object, string][] = [
      [{ events: good.events }, 'url'],
      [{ ...good, url: '' }, 'url'],
      [{ ...good, url: 'erp.example.com/hooks' }, 'url'],
      [{ ...good, url: 'ftp://erp.example.com/hooks' }, 'url'],
      [{ ...good, url: 'javascript:alert(1)' }, 'url'],
      [{ ...good, url: 'https://user:secret@erp.example.com/hooks' }, 'url'],
      [{ ...good, url: 'https://user@erp.example.com/hooks' }, 'url'],
      [{ ...good, url: `https://erp.example.com/${'a'.repeat(2048)}` }, 'url'],
      [{ ...good, url: 'https://erp.example.com/\nhooks' }, 'url'],
      [{ ...good, url: 42 }, 'url'],
      [{ url: good.url }, 'events'],
      [{ ...good, events: [] }, 'events'],
      [{ ...good, events: 'member.added' }, 'events'],
      [{ ...good, events: ['member.added', 'member.added'] }, 'events'],
      [{ ...good, events: ['member.joined'] }, 'events.0'],
      [{ ...good, events: ['webhook.test'] }, 'events.0'],
      [{ ...good, description: 'x'.repeat(501) }, 'description'],
      [{ ...good, description: 'tab\there' }, 'description'],
      [{ ...good, secret: 'whsec_mine' }, 'secret'],
    ];
    for (const [body, field] of cases) {
      const res = await s.send('POST', url(), s.people.OWNER, body);
      expect([body, res.statusCode, res.json().code]).toEqual([body, 400, 'VALIDATION_ERROR']);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await endpointCount()).toBe(before);
  });

  it('refuses a bad change with 400 naming the field, and changes nothing', async () => {
    const made = await create();
    const before = await stored(made.id);
    const cases: [object, string][] = [
      [{ url: 'mailto:ops@example.com' }, 'url'],
      [{ url: 'https://a:b@erp.example.com/' }, 'url'],
      [{ events: [] }, 'events'],
      [{ events: ['webhook.test'] }, 'events.0'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ description: null }, 'description'],
      [{ secret: 'whsec_x' }, 'secret'],
    ];
    for (const [body, field] of cases) {
      const res = await s.send('PATCH', `${url()}${made.id}/`, s.people.OWNER, body);
      expect([body, res.statusCode]).toEqual([body, 400]);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await stored(made.id)).toEqual(before);
    // The deliveries' paging alike.
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?page=0', 'page'],
      ['?status=failed', 'status'],
    ] as const) {
      const res = await s.send('GET', `${url()}${made.id}/deliveries/${query}`, s.people.OWNER);
      expect([query, res.statusCode]).toEqual([query, 400]);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('answers 404 retrying a delivery nobody has', async () => {
    const res = await s.send(
      'POST',
      `${url()}deliveries/00000000-0000-4000-8000-000000000000/retry/`,
      s.people.OWNER,
    );
    expect(res.statusCode).toBe(404);
  });
});
