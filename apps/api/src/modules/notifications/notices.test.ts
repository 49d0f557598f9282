import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

/**
 * What other modules tell through the bell: an invitation (its words once), a STAFF member's
 * workspace waiting for approval (each OWNER and ADMIN), a member's changed role (the member).
 */
describe('notifications other modules write', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
  });
  afterAll(() => t.close());

  const bell = async (who: Person) => {
    const res = await s.send('GET', '/v1/user/notification/?limit=100', who);
    expect(res.statusCode).toBe(200);
    return res.json().results as {
      type: string;
      status: string;
      is_seen: boolean;
      extra_message: string | null;
      meta: Record<string, unknown>;
      organization: { id: string } | null;
      client: { id: string; name: string } | null;
      author: { id: string } | null;
    }[];
  };

  it('an invitation carries its offer in the meta only, so the bell says it once', async () => {
    const invitee = await s.person();
    const res = await s.send('POST', `/v1/organizations/${s.orgId}/users/invitation/`, p.OWNER, {
      email: invitee.email,
      role: 'STAFF',
    });
    expect(res.statusCode).toBe(201);
    const [n, ...rest] = await bell(invitee);
    expect(rest).toHaveLength(0);
    expect(n).toMatchObject({
      type: 'INVITATION',
      status: 'OPEN',
      extra_message: null,
      author: { id: p.OWNER.id },
      meta: { type: 'organization', role: 'STAFF' },
    });
  });

  it('tells every OWNER and ADMIN that a STAFF member’s workspace waits for approval, no one else', async () => {
    const before = { staff: (await bell(p.STAFF)).length, client: (await bell(p.CLIENT)).length };
    const res = await s.send('POST', `/v1/organizations/${s.orgId}/clients/`, p.STAFF, {
      name: 'Awaiting',
    });
    expect(res.statusCode).toBe(201);
    const clientId = res.json().id as string;
    for (const who of [p.OWNER, p.ADMIN]) {
      const found = (await bell(who)).filter((n) => n.type === 'WORKSPACE_APPROVAL');
      expect(found).toEqual([
        expect.objectContaining({
          status: 'DONE',
          is_seen: false,
          client: { id: clientId, name: 'Awaiting' },
          author: expect.objectContaining({ id: p.STAFF.id }),
          meta: { client_id: clientId },
          extra_message: 'The workspace Awaiting waits for your approval.',
        }),
      ]);
    }
    expect(await bell(p.STAFF)).toHaveLength(before.staff);
    expect(await bell(p.CLIENT)).toHaveLength(before.client);
    expect(await bell(p.STRANGER)).toHaveLength(0);

    // An OWNER's or ADMIN's workspace is active at once: nobody is asked.
    const direct = await s.send('POST', `/v1/organizations/${s.orgId}/clients/`, p.ADMIN, {
      name: 'Direct',
    });
    expect(direct.statusCode).toBe(201);
    expect((await bell(p.OWNER)).filter((n) => n.type === 'WORKSPACE_APPROVAL')).toHaveLength(1);
  });

  it('tells a member whose organization role changed, old and new role; nothing for the same role', async () => {
    const member = await s.member('STAFF');
    const url = `/v1/organizations/${s.orgId}/users/${member.id}/role/`;
    expect((await s.send('PUT', url, p.OWNER, { role: 'ADMIN' })).statusCode).toBe(200);
    expect((await s.send('PUT', url, p.OWNER, { role: 'ADMIN' })).statusCode).toBe(200);
    const notes = await bell(member);
    expect(notes).toEqual([
      expect.objectContaining({
        type: 'ROLE_CHANGED',
        status: 'DONE',
        is_seen: false,
        organization: expect.objectContaining({ id: s.orgId }),
        client: null,
        author: expect.objectContaining({ id: p.OWNER.id }),
        meta: { type: 'organization', id: s.orgId, from: 'STAFF', to: 'ADMIN' },
        extra_message: expect.stringMatching(
          /^Your role in the organization .+ changed from Staff to Admin\.$/,
        ),
      }),
    ]);
  });

  it('tells a member whose workspace role changed', async () => {
    const ws = await createClient(t.ctx.db, { organizationId: s.orgId, name: 'Roles' });
    const member = await s.member('STAFF');
    await addClientMember(t.ctx.db, { clientId: ws.id, userId: member.id, role: 'STAFF' });
    const res = await s.send('PUT', `/v1/clients/${ws.id}/users/${member.id}/roles/`, p.OWNER, {
      role: 'MANAGER',
    });
    expect(res.statusCode).toBe(200);
    expect(await bell(member)).toEqual([
      expect.objectContaining({
        type: 'ROLE_CHANGED',
        client: { id: ws.id, name: 'Roles' },
        meta: { type: 'client', id: ws.id, from: 'STAFF', to: 'MANAGER' },
        extra_message: 'Your role in the workspace Roles changed from Staff to Manager.',
      }),
    ]);
  });
});
