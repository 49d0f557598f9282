import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberPermissions } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import type { Person } from '../../../test/support/tenants.ts';
import { memberCustomRoles } from '../../db/schema/index.ts';
import { createClient } from '../../seed/factories.ts';
import { expectFieldError, permissionScene, ruleBody, type PermissionScene } from './test-scene.ts';

const statusOf = (body: MemberPermissions, key: string) =>
  body.modules.flatMap((m) => m.groups.flatMap((g) => g.permissions)).find((p) => p.key === key)!;

/**
 * A member's custom roles: GET/PUT /v1/clients/{id}/users/{userId}/custom-roles/ and
 * POST …/custom-roles/preview/.
 */
describe('a member’s custom roles', () => {
  let t: TestApp;
  let s: PermissionScene;
  let wsRole: { id: string; name: string };
  let orgRole: { id: string; name: string };
  let otherWsRole: { id: string };
  let strangerRole: { id: string };

  const create = async (url: string, body: unknown, who: Person) => {
    const res = await s.send('POST', url, who, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  /** A role of one rule of one permission and status. */
  const roleWith = async (
    base: string,
    name: string,
    permission: string,
    status: string,
    who = s.people.OWNER,
  ) => {
    const rule = await create(
      `${base}access-rules/`,
      ruleBody(`${name} rule`, [{ permission, status }]),
      who,
    );
    return create(`${base}custom-roles/`, { name, rules: [{ rule: rule.id, priority: 1 }] }, who);
  };

  beforeAll(async () => {
    t = await createTestApp();
    s = await permissionScene(t);
    wsRole = await roleWith(s.ws(), 'No labels', 'tr.shipping_label.create', 'DENY');
    orgRole = await roleWith(s.org(), 'Labels', 'tr.shipping_label.create', 'ALLOW');
    const other = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
    });
    otherWsRole = await roleWith(
      `/v1/clients/${other.id}/`,
      'Other workspace',
      'tr.fnsku.print',
      'DENY',
    );
    strangerRole = await roleWith(
      `/v1/organizations/${s.otherOrgId}/`,
      'Theirs',
      'tr.fnsku.print',
      'DENY',
      s.people.STRANGER,
    );
  });
  afterAll(() => t.close());

  const url = (who: Person, path = '') => s.ws(`users/${who.id}/custom-roles/${path}`);
  const stored = (who: Person) =>
    t.ctx.db
      .select({ role: memberCustomRoles.role_id, priority: memberCustomRoles.priority })
      .from(memberCustomRoles)
      .where(eq(memberCustomRoles.user_id, who.id))
      .orderBy(memberCustomRoles.priority);

  it('assigns roles of the workspace and its organization; the first in priority decides', async () => {
    const staff = s.people.STAFF;
    expect((await s.send('GET', url(staff), staff)).json()).toEqual({ roles: [] });
    const res = await s.send('PUT', url(staff), s.people.MANAGER, {
      roles: [
        { role: orgRole.id, priority: 2 },
        { role: wsRole.id, priority: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = {
      roles: [
        { role: { id: wsRole.id, name: 'No labels', scope: 'client' }, priority: 1 },
        { role: { id: orgRole.id, name: 'Labels', scope: 'organization' }, priority: 2 },
      ],
    };
    expect(res.json()).toEqual(answer);
    expect((await s.send('GET', url(staff), staff)).json()).toEqual(answer);
    const mine = (await s.send('GET', s.ws(`users/${staff.id}/permissions/`), staff)).json();
    expect(statusOf(mine, 'tr.shipping_label.create')).toMatchObject({
      status: 'DENY',
      source: {
        kind: 'custom_role',
        role: { id: wsRole.id, name: 'No labels' },
        rule: { name: 'No labels rule' },
      },
    });
  });

  it('previews what roles would give without writing anything', async () => {
    const member = await s.workspaceMember('STAFF');
    await s.send('PUT', url(member), s.people.OWNER, { roles: [{ role: wsRole.id, priority: 1 }] });
    const res = await s.send('POST', url(member, 'preview/'), s.people.OWNER, {
      roles: [
        { role: orgRole.id, priority: 1 },
        { role: wsRole.id, priority: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(statusOf(res.json(), 'tr.shipping_label.create')).toMatchObject({
      status: 'ALLOW',
      source: { kind: 'custom_role', role: { id: orgRole.id } },
    });
    expect(await stored(member)).toEqual([{ role: wsRole.id, priority: 1 }]);
    const now = (
      await s.send('GET', s.ws(`users/${member.id}/permissions/`), s.people.OWNER)
    ).json();
    expect(statusOf(now, 'tr.shipping_label.create').status).toBe('DENY');
    // No roles at all: the default role decides.
    const none = (
      await s.send('POST', url(member, 'preview/'), s.people.OWNER, { roles: [] })
    ).json();
    expect(statusOf(none, 'tr.shipping_label.create').source).toEqual({
      kind: 'default_role',
      role: 'STAFF',
    });
  });

  it('refuses bad priorities, repeats and roles from elsewhere on PUT and preview, writing nothing', async () => {
    const member = await s.workspaceMember('CLIENT');
    await s.send('PUT', url(member), s.people.OWNER, {
      roles: [{ role: orgRole.id, priority: 1 }],
    });
    const r = (role: string, priority: number) => ({ role, priority });
    const bad: [unknown, string][] = [
      [{ roles: [r(wsRole.id, 1), r(orgRole.id, 3)] }, 'roles.1.priority'],
      [{ roles: [r(wsRole.id, 2), r(orgRole.id, 2)] }, 'roles.1.priority'],
      [{ roles: [r(wsRole.id, 1), r(wsRole.id, 2)] }, 'roles.1.role'],
      [{ roles: [r(wsRole.id, 1), r(otherWsRole.id, 2)] }, 'roles.1.role'],
      [{ roles: [r(strangerRole.id, 1)] }, 'roles.0.role'],
      [{ roles: [r(crypto.randomUUID(), 1)] }, 'roles.0.role'],
      [{ roles: [r(wsRole.id, 1.5)] }, 'roles.0.priority'],
      [{}, 'roles'],
    ];
    for (const [body, field] of bad) {
      expectFieldError(await s.send('PUT', url(member), s.people.OWNER, body), field);
      expectFieldError(await s.send('POST', url(member, 'preview/'), s.people.OWNER, body), field);
    }
    expect(await stored(member)).toEqual([{ role: orgRole.id, priority: 1 }]);
  });

  it('follows spec §6 and reads: a MANAGER not on an ADMIN; STAFF read only their own', async () => {
    const body = { roles: [{ role: wsRole.id, priority: 1 }] };
    expect((await s.send('PUT', url(s.people.ADMIN), s.people.MANAGER, body)).statusCode).toBe(403);
    expect(
      (await s.send('POST', url(s.people.OWNER, 'preview/'), s.people.MANAGER, body)).statusCode,
    ).toBe(403);
    expect(await stored(s.people.ADMIN)).toEqual([]);
    expect((await s.send('PUT', url(s.people.ADMIN), s.people.OWNER, body)).statusCode).toBe(200);
    expect((await s.send('GET', url(s.people.ADMIN), s.people.STAFF)).statusCode).toBe(403);
    expect((await s.send('GET', url(s.people.ADMIN), s.people.MANAGER)).statusCode).toBe(200);
    expect((await s.send('GET', url(s.people.CLIENT), s.people.CLIENT)).statusCode).toBe(200);
    const outsider = await s.member('STAFF');
    expect((await s.send('PUT', url(outsider), s.people.OWNER, body)).statusCode).toBe(404);
    expect((await s.send('GET', url(outsider), s.people.OWNER)).statusCode).toBe(404);
  });
});
