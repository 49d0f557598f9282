import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_KEYS, type MemberPermissions } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import type { Person } from '../../../test/support/tenants.ts';
import { activities, clientModules, memberPermissionOverrides } from '../../db/schema/index.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';
import { expectFieldError, permissionScene, ruleBody, type PermissionScene } from './test-scene.ts';

type Effective = MemberPermissions['modules'][number]['groups'][number]['permissions'][number];

/** Every permission of an answer, by key. */
const flatten = (body: MemberPermissions): Record<string, Effective> =>
  Object.fromEntries(
    body.modules.flatMap((m) => m.groups.flatMap((g) => g.permissions.map((p) => [p.key, p]))),
  );

/**
 * A member's permissions: GET /v1/clients/{id}/users/{userId}/permissions/, the explainer
 * GET …/permissions/explain?permission=, and PUT …/permissions/{module}/{group}/.
 */
describe('a member’s permissions', () => {
  let t: TestApp;
  let s: PermissionScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await permissionScene(t);
  });
  afterAll(() => t.close());

  const permissionsOf = async (who: Person, as: Person = s.people.OWNER) => {
    const res = await s.send('GET', s.ws(`users/${who.id}/permissions/`), as);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as MemberPermissions;
  };
  const overrides = (body: { permission: string; status: string }[]) => ({ permissions: body });
  const putGroup = (
    who: Person,
    group: string,
    body: unknown,
    as: Person = s.people.OWNER,
    module = 'TR',
  ) => s.send('PUT', s.ws(`users/${who.id}/permissions/${module}/${group}/`), as, body);

  it('gives the OWNER everything by the default role, arranged by module and group', async () => {
    const body = await permissionsOf(s.people.OWNER);
    expect(body).toMatchObject({ user: s.people.OWNER.id, client: s.workspaceId, role: 'OWNER' });
    expect(body.modules).toHaveLength(1);
    expect(body.modules[0]).toMatchObject({ module: 'TR', name: '2D Transit', enabled: true });
    expect(body.modules[0]!.groups[0]).toMatchObject({
      key: 'history',
      name: 'History',
      permissions: [
        {
          key: 'tr.history.view',
          status: 'ALLOW',
          override: 'INHERIT',
          source: { kind: 'default_role', role: 'OWNER' },
        },
        { key: 'tr.history.extract', status: 'ALLOW' },
      ],
    });
    expect(Object.keys(flatten(body))).toEqual(PERMISSION_KEYS);
  });

  it('lets members read their own: STAFF by the staff rule, CLIENT nothing', async () => {
    const staff = flatten(await permissionsOf(s.people.STAFF, s.people.STAFF));
    expect(staff['tr.history.view']).toMatchObject({
      status: 'ALLOW',
      source: { kind: 'default_role', role: 'STAFF' },
    });
    expect(staff['tr.settings.update']!.status).toBe('DENY');
    expect(staff['tr.shipment_box.delete']!.status).toBe('DENY');
    const client = flatten(await permissionsOf(s.people.CLIENT, s.people.CLIENT));
    for (const p of Object.values(client)) {
      expect(p).toMatchObject({ status: 'DENY', source: { kind: 'inherit' } });
    }
    // The organization's ADMIN counts as ADMIN; a MANAGER gets everything but the settings.
    expect((await permissionsOf(s.people.ADMIN)).role).toBe('ADMIN');
    const manager = flatten(await permissionsOf(s.people.MANAGER));
    expect(manager['tr.settings.view']!.status).toBe('DENY');
    expect(manager['tr.shipment_box.delete']!.status).toBe('ALLOW');
  });

  it('refuses others’ permissions to STAFF and CLIENT (403), a non-member target is 404', async () => {
    for (const as of [s.people.STAFF, s.people.CLIENT]) {
      expect(
        (await s.send('GET', s.ws(`users/${s.people.OWNER.id}/permissions/`), as)).statusCode,
      ).toBe(403);
      const explain = s.ws(
        `users/${s.people.OWNER.id}/permissions/explain?permission=tr.history.view`,
      );
      expect((await s.send('GET', explain, as)).statusCode).toBe(403);
    }
    const outsider = await s.member('STAFF');
    for (const id of [outsider.id, s.people.STRANGER.id, crypto.randomUUID()]) {
      expect(
        (await s.send('GET', s.ws(`users/${id}/permissions/`), s.people.OWNER)).statusCode,
      ).toBe(404);
      expect((await putGroup({ ...outsider, id }, 'history', overrides([]))).statusCode).toBe(404);
    }
    expectFieldError(
      await s.send('GET', s.ws('users/nobody/permissions/'), s.people.OWNER),
      'userId',
    );
  });

  it('sets a group’s overrides exactly: listed ALLOW and DENY kept, INHERIT and the rest removed', async () => {
    const staff = s.people.STAFF;
    const first = await putGroup(
      staff,
      'history',
      overrides([
        { permission: 'tr.history.view', status: 'DENY' },
        { permission: 'tr.history.extract', status: 'ALLOW' },
      ]),
    );
    expect(first.statusCode, first.body).toBe(200);
    const after = flatten(first.json());
    expect(after['tr.history.view']).toMatchObject({
      status: 'DENY',
      override: 'DENY',
      source: { kind: 'override' },
    });
    expect(after['tr.history.extract']).toMatchObject({ status: 'ALLOW', override: 'ALLOW' });
    // Another group's overrides are left alone by this group's PUT.
    await putGroup(
      staff,
      'settings',
      overrides([{ permission: 'tr.settings.view', status: 'ALLOW' }]),
    );
    const second = flatten(
      (
        await putGroup(
          staff,
          'history',
          overrides([{ permission: 'tr.history.view', status: 'INHERIT' }]),
        )
      ).json(),
    );
    expect(second['tr.history.view']).toMatchObject({
      status: 'ALLOW',
      override: 'INHERIT',
      source: { kind: 'default_role' },
    });
    expect(second['tr.history.extract']!.override).toBe('INHERIT');
    expect(second['tr.settings.view']).toMatchObject({ status: 'ALLOW', override: 'ALLOW' });
    const stored = await t.ctx.db
      .select({ permission: memberPermissionOverrides.permission })
      .from(memberPermissionOverrides)
      .where(
        and(
          eq(memberPermissionOverrides.client_id, s.workspaceId),
          eq(memberPermissionOverrides.user_id, staff.id),
        ),
      );
    expect(stored).toEqual([{ permission: 'tr.settings.view' }]);
    const logged = await t.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.action, 'UPDATE_MEMBER'), eq(activities.object_id, staff.id)));
    expect(logged.length).toBeGreaterThanOrEqual(3);
    expect(logged[0]).toMatchObject({
      user_id: s.people.OWNER.id,
      organization_id: s.orgId,
      object_type: 'user',
      data: { change: 'permissions', module: 'TR', group: 'history', client_id: s.workspaceId },
    });
  });

  it('refuses keys of another group (400 naming the item), unknown groups (404) and modules (400)', async () => {
    const staff = await s.workspaceMember('STAFF');
    expectFieldError(
      await putGroup(
        staff,
        'history',
        overrides([
          { permission: 'tr.history.view', status: 'DENY' },
          { permission: 'tr.settings.view', status: 'DENY' },
        ]),
      ),
      'permissions.1.permission',
    );
    expectFieldError(
      await putGroup(staff, 'history', overrides([{ permission: 'tr.nope.view', status: 'DENY' }])),
      'permissions.0.permission',
    );
    expectFieldError(
      await putGroup(
        staff,
        'history',
        overrides([{ permission: 'tr.history.view', status: 'NO' }]),
      ),
      'permissions.0.status',
    );
    expectFieldError(await putGroup(staff, 'history', { permissions: [], more: true }), 'more');
    expect((await putGroup(staff, 'teleport', overrides([]))).statusCode).toBe(404);
    expect(
      (await putGroup(staff, 'history', overrides([]), s.people.OWNER, 'MAP')).statusCode,
    ).toBe(404);
    expectFieldError(
      await putGroup(staff, 'history', overrides([]), s.people.OWNER, 'XX'),
      'module',
    );
    const stored = await t.ctx.db
      .select()
      .from(memberPermissionOverrides)
      .where(eq(memberPermissionOverrides.user_id, staff.id));
    expect(stored).toEqual([]);
  });

  it('follows spec §6: a MANAGER may not change an ADMIN’s or OWNER’s, an ADMIN not an OWNER’s', async () => {
    const body = overrides([{ permission: 'tr.history.view', status: 'DENY' }]);
    const cases: [Person, Person, number][] = [
      [s.people.MANAGER, s.people.ADMIN, 403],
      [s.people.MANAGER, s.people.OWNER, 403],
      [s.people.ADMIN, s.people.OWNER, 403],
      [s.people.MANAGER, s.people.CLIENT, 200],
      [s.people.MANAGER, s.people.MANAGER, 200],
      [s.people.ADMIN, s.people.ADMIN, 200],
      [s.people.OWNER, s.people.ADMIN, 200],
    ];
    for (const [as, target, status] of cases) {
      const res = await putGroup(target, 'history', body, as);
      expect(res.statusCode, `${as.email} on ${target.email}: ${res.body}`).toBe(status);
    }
    const owners = flatten(await permissionsOf(s.people.OWNER));
    expect(owners['tr.history.view']!.override).toBe('INHERIT');
  });

  it('refuses an organization ADMIN who is a workspace OWNER the organization OWNER’s permissions (403)', async () => {
    const admin = await s.member('ADMIN');
    await addClientMember(t.ctx.db, { clientId: s.workspaceId, userId: admin.id, role: 'OWNER' });
    const body = overrides([{ permission: 'tr.history.view', status: 'DENY' }]);
    const res = await putGroup(s.people.OWNER, 'history', body, admin);
    expect(res.statusCode, res.body).toBe(403);
    const roles = await s.send('PUT', s.ws(`users/${s.people.OWNER.id}/custom-roles/`), admin, {
      roles: [],
    });
    expect(roles.statusCode, roles.body).toBe(403);
    expect(flatten(await permissionsOf(s.people.OWNER))['tr.history.view']!.override).toBe(
      'INHERIT',
    );
    // An ADMIN's stay theirs to change.
    expect((await putGroup(s.people.ADMIN, 'history', body, admin)).statusCode).toBe(200);
  });

  it('explains every permission as GET answers it, for a member with overrides and custom roles', async () => {
    const member = await s.workspaceMember('STAFF');
    const rule = (
      await s.send(
        'POST',
        s.ws('access-rules/'),
        s.people.OWNER,
        ruleBody('Labels', [
          { permission: 'tr.shipping_label.create', status: 'DENY' },
          { permission: 'tr.settings.view', status: 'ALLOW' },
        ]),
      )
    ).json();
    const role = (
      await s.send('POST', s.ws('custom-roles/'), s.people.OWNER, {
        name: 'Packers',
        rules: [{ rule: rule.id, priority: 1 }],
      })
    ).json();
    await s.send('PUT', s.ws(`users/${member.id}/custom-roles/`), s.people.OWNER, {
      roles: [{ role: role.id, priority: 1 }],
    });
    await putGroup(member, 'fnsku', overrides([{ permission: 'tr.fnsku.print', status: 'DENY' }]));
    const listed = flatten(await permissionsOf(member));
    const sources = new Set<string>();
    for (const key of PERMISSION_KEYS) {
      const res = await s.send(
        'GET',
        s.ws(`users/${member.id}/permissions/explain?permission=${key}`),
        s.people.MANAGER,
      );
      expect(res.statusCode, res.body).toBe(200);
      const e = res.json();
      expect({ status: e.status, source: e.source }).toEqual({
        status: listed[key]!.status,
        source: listed[key]!.source,
      });
      expect(e.permission.key).toBe(key);
      sources.add(e.source.kind);
    }
    expect([...sources].sort()).toEqual(['custom_role', 'default_role', 'override']);
    const label = await s.send(
      'GET',
      s.ws(`users/${member.id}/permissions/explain?permission=tr.shipping_label.create`),
      member,
    );
    expect(label.json()).toMatchObject({
      status: 'DENY',
      sentence: 'Denied by the custom role Packers, rule Labels.',
      steps: [
        { kind: 'module', module: 'TR', enabled: true },
        { kind: 'override', status: 'INHERIT' },
        {
          kind: 'custom_role',
          role: { id: role.id, name: 'Packers' },
          rule: { id: rule.id, name: 'Labels' },
          status: 'DENY',
        },
      ],
    });
    expectFieldError(
      await s.send(
        'GET',
        s.ws(`users/${member.id}/permissions/explain?permission=tr.nope`),
        member,
      ),
      'permission',
    );
    expectFieldError(
      await s.send('GET', s.ws(`users/${member.id}/permissions/explain`), member),
      'permission',
    );
  });

  it('shows every permission of a switched-off module DISABLED, and the explainer says why', async () => {
    const other = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
      enabledModules: [],
    });
    const url = `/v1/clients/${other.id}/users/${s.people.OWNER.id}/permissions/`;
    const body = (await s.send('GET', url, s.people.OWNER)).json() as MemberPermissions;
    expect(body.modules[0]!.enabled).toBe(false);
    for (const p of Object.values(flatten(body))) {
      expect(p).toMatchObject({ status: 'DISABLED', source: { kind: 'module_disabled' } });
    }
    const e = (
      await s.send('GET', `${url}explain?permission=tr.history.view`, s.people.OWNER)
    ).json();
    expect(e).toMatchObject({
      status: 'DISABLED',
      sentence: 'Disabled: the module 2D Transit is switched off in this workspace.',
    });
    // Switched back on, the default role decides again.
    await t.ctx.db
      .update(clientModules)
      .set({ enabled: true })
      .where(eq(clientModules.client_id, other.id));
    expect(
      flatten((await s.send('GET', url, s.people.OWNER)).json())['tr.history.view']!.status,
    ).toBe('ALLOW');
  });
});
