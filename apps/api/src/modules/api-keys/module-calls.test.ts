import { ErrorCode } from '@portolan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClientMember, createClient, createOrganization } from '../../seed/factories.ts';
import { adjustBalance } from '../billing/index.ts';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';

/**
 * What a module's back end does with an organization API key (issue 21 items 5 and 6): ask
 * whether a member may do something, notify members, charge the wallet. Each is also open to the
 * organization's OWNERs and ADMINs signed in; never to anyone else.
 */
describe('a module back end with an API key', () => {
  let t: TestApp;
  let s: TenantScene;
  let workspaceId: string;
  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    workspaceId = (
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: s.people.OWNER.id })
    ).id;
    await addClientMember(t.ctx.db, {
      clientId: workspaceId,
      userId: s.people.STAFF.id,
      role: 'STAFF',
    });
  });
  afterAll(() => t.close());

  async function keyWith(permissions: string[], orgId = s.orgId, extra: object = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${orgId}/api-keys/`,
      headers: bearer(s.people.OWNER.token),
      payload: { name: 'Module', permissions, ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().key as string;
  }
  const post = (token: string | null, url: string, payload: object, headers: object = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...(token ? bearer(token) : {}), ...headers },
      payload,
    });

  it('asks whether a member may, with the explainer’s reason; a non-member may not', async () => {
    const key = await keyWith(['organization.access.check']);
    const ask = (
      userId: string,
      permission = 'tr.history.view',
      clientId = workspaceId,
      who = key,
    ) => post(who, '/v1/access/check/', { user_id: userId, client_id: clientId, permission });
    const staff = await ask(s.people.STAFF.id);
    expect(staff.statusCode, staff.body).toBe(200);
    expect(staff.json()).toMatchObject({
      allowed: expect.any(Boolean),
      reason: expect.any(String),
    });
    expect(staff.json().explanation.steps.length).toBeGreaterThan(0);
    const owner = await ask(s.people.OWNER.id);
    expect(owner.json().allowed).toBe(true);
    const stranger = await ask(s.people.STRANGER.id);
    expect(stranger.json()).toEqual({
      allowed: false,
      reason: 'They are not a member of this workspace.',
      explanation: null,
    });

    // Bad input names the field; another organization's workspace is not found.
    const unknown = await ask(s.people.STAFF.id, 'nope.nothing');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].field).toBe('permission');
    expect(
      (
        await post(key, '/v1/access/check/', {
          user_id: 'x',
          client_id: workspaceId,
          permission: 'a',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await post(key, '/v1/access/check/', { user_id: s.people.STAFF.id, permission: 'a' }))
        .statusCode,
    ).toBe(400);
    const elsewhere = await createClient(t.ctx.db, { organizationId: s.otherOrgId });
    expect((await ask(s.people.STAFF.id, 'tr.history.view', elsewhere.id)).statusCode).toBe(404);

    // Who may ask: a key with the permission, OWNERs and ADMINs; not another key, not STAFF.
    const other = await keyWith(['organization.members.read']);
    expect((await ask(s.people.STAFF.id, 'tr.history.view', workspaceId, other)).statusCode).toBe(
      403,
    );
    const expected = { OWNER: 200, ADMIN: 200, STAFF: 403, CLIENT: 404, STRANGER: 404 } as const;
    for (const [role, status] of Object.entries(expected)) {
      const who = s.people[role as keyof typeof expected].token;
      expect(
        (await ask(s.people.STAFF.id, 'tr.history.view', workspaceId, who)).statusCode,
        role,
      ).toBe(status);
    }
    expect(
      (
        await post(null, '/v1/access/check/', {
          user_id: s.people.STAFF.id,
          client_id: workspaceId,
          permission: 'tr.history.view',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('notifies named members: their bell shows it, sent by the key; a stranger refuses the call', async () => {
    const key = await keyWith(['organization.notifications.send']);
    const url = `/v1/organizations/${s.orgId}/notifications/`;
    const sent = await post(key, url, {
      user_ids: [s.people.STAFF.id, s.people.CLIENT.id],
      message: 'Your labels are ready.',
      module: 'TR',
      client_id: workspaceId,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toEqual({ notified: 2 });
    const bell = await t.app.inject({
      method: 'GET',
      url: '/v1/user/notification/',
      headers: bearer(s.people.STAFF.token),
    });
    const item = bell.json().results[0];
    expect(item).toMatchObject({ type: 'MODULE', extra_message: 'Your labels are ready.' });
    expect(item.meta).toMatchObject({ module: 'TR', api_key: { name: 'Module' } });

    const count = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/v1/user/notification/',
          headers: bearer(s.people.CLIENT.token),
        })
      ).json().count as number;
    const before = await count();
    const refused = await post(key, url, {
      user_ids: [s.people.CLIENT.id, s.people.STRANGER.id],
      message: 'x',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details[0].field).toBe('user_ids');
    expect(await count()).toBe(before);
    for (const [payload, field] of [
      [{ user_ids: [], message: 'x' }, 'user_ids'],
      [{ user_ids: [s.people.CLIENT.id], message: '' }, 'message'],
      [{ user_ids: [s.people.CLIENT.id], message: 'x', module: 'XX' }, 'module'],
      [
        {
          user_ids: [s.people.CLIENT.id],
          message: 'x',
          client_id: (await createClient(t.ctx.db, { organizationId: s.otherOrgId })).id,
        },
        'client_id',
      ],
    ] as const) {
      const res = await post(key, url, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(res.json().details)).toContain(field);
    }
    const body = { user_ids: [s.people.CLIENT.id], message: 'Hello' };
    const expected = { OWNER: 201, ADMIN: 201, STAFF: 403, CLIENT: 403, STRANGER: 404 } as const;
    for (const [role, status] of Object.entries(expected)) {
      expect(
        (await post(s.people[role as keyof typeof expected].token, url, body)).statusCode,
        role,
      ).toBe(status);
    }
    expect((await post(null, url, body)).statusCode).toBe(401);
    expect((await post(await keyWith(['organization.read']), url, body)).statusCode).toBe(403);
  });

  it('charges the wallet as the key: its own Idempotency-Keys, its entries marked as the key’s', async () => {
    const org = await createOrganization(t.ctx.db, {
      ownerId: s.people.OWNER.id,
      plan: 'STANDARD',
    });
    await adjustBalance(t.ctx.db, org.id, 1000, 'Welcome credit');
    const key = await keyWith(['organization.balance.charge'], org.id);
    const url = `/v1/organizations/${org.id}/balance/charges/`;
    const body = { service: 'SHIPPING_LABEL', quantity: 2 };
    const byKey = await post(key, url, body, { 'idempotency-key': 'same-key-1' });
    expect(byKey.statusCode, byKey.body).toBe(201);
    expect(byKey.json().entry).toMatchObject({
      source: 'api_key',
      user: { id: s.people.OWNER.id },
    });
    expect((await post(key, url, body, { 'idempotency-key': 'same-key-1' })).statusCode).toBe(200);
    // The creator's own request with the same Idempotency-Key is a charge of its own.
    const byOwner = await post(s.people.OWNER.token, url, body, {
      'idempotency-key': 'same-key-1',
    });
    expect(byOwner.statusCode).toBe(201);
    expect(byOwner.json().entry.source).toBe('member');
    expect(byOwner.json().entry.id).not.toBe(byKey.json().entry.id);
    const noCharge = await post(await keyWith(['organization.read'], org.id), url, body, {
      'idempotency-key': 'k2',
    });
    expect(noCharge.statusCode).toBe(403);
    expect(noCharge.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    // A key limited to some workspaces charges for those only (issue 22: charges name theirs).
    const [mine, other] = await Promise.all(
      ['Mine', 'Other'].map((name) =>
        createClient(t.ctx.db, { organizationId: org.id, ownerId: s.people.OWNER.id, name }),
      ),
    );
    const limited = await keyWith(['organization.balance.charge'], org.id, {
      workspace_ids: [mine!.id],
    });
    const forMine = await post(
      limited,
      url,
      { ...body, client_id: mine!.id },
      {
        'idempotency-key': 'k3',
      },
    );
    expect(forMine.statusCode, forMine.body).toBe(201);
    const forOther = await post(
      limited,
      url,
      { ...body, client_id: other!.id },
      {
        'idempotency-key': 'k4',
      },
    );
    expect(forOther.statusCode).toBe(400);
    expect(forOther.json().details[0].field).toBe('client_id');
  });
});
