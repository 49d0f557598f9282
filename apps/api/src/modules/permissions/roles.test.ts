import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { customRoleRules, customRoles, memberCustomRoles } from '../../db/schema/index.ts';
import { expectFieldError, permissionScene, ruleBody, type PermissionScene } from './test-scene.ts';

/**
 * Custom roles at both levels: GET/POST …/custom-roles/, GET/PUT/DELETE …/custom-roles/{roleId}/
 * under /v1/organizations/{orgId}/ and /v1/clients/{id}/.
 */
describe('custom roles', () => {
  let t: TestApp;
  let s: PermissionScene;
  let orgRule: { id: string };
  let wsRule: { id: string };
  let strangerRule: { id: string };

  const post = (url: string, body: unknown, who = s.people.OWNER) => s.send('POST', url, who, body);
  const rule = async (url: string, name: string, who = s.people.OWNER) => {
    const res = await post(url, ruleBody(name), who);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string };
  };

  beforeAll(async () => {
    t = await createTestApp();
    s = await permissionScene(t);
    orgRule = await rule(s.org('access-rules/'), 'Org rule');
    wsRule = await rule(s.ws('access-rules/'), 'Workspace rule');
    strangerRule = await rule(
      `/v1/organizations/${s.otherOrgId}/access-rules/`,
      'Theirs',
      s.people.STRANGER,
    );
  });
  afterAll(() => t.close());

  const liveRoles = () =>
    t.ctx.db
      .select()
      .from(customRoles)
      .where(and(eq(customRoles.organization_id, s.orgId), isNull(customRoles.deleted_at)));

  it('creates a workspace role from the workspace’s and the organization’s rules, in priority order', async () => {
    const res = await post(s.ws('custom-roles/'), {
      name: 'Packers',
      description: 'Floor staff',
      rules: [
        { rule: orgRule.id, priority: 2 },
        { rule: wsRule.id, priority: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'Packers',
      description: 'Floor staff',
      scope: 'client',
      client: s.workspaceId,
      organization: s.orgId,
      is_system: false,
      rules: [
        {
          rule: { id: wsRule.id, name: 'Workspace rule', module: null, scope: 'client' },
          priority: 1,
        },
        {
          rule: { id: orgRule.id, name: 'Org rule', module: null, scope: 'organization' },
          priority: 2,
        },
      ],
    });
    expect(
      (await s.send('GET', s.ws(`custom-roles/${body.id}/`), s.people.MANAGER)).json(),
    ).toEqual(body);
    const listed = (await s.send('GET', s.ws('custom-roles/'), s.people.ADMIN)).json();
    expect(listed.results).toContainEqual(body);
  });

  it('refuses priorities that are not 1..n, a rule twice, and rules from elsewhere, writing nothing', async () => {
    const before = (await liveRoles()).length;
    const url = s.ws('custom-roles/');
    const r = (rule: string, priority: number) => ({ rule, priority });
    expectFieldError(
      await post(url, { name: 'Gap', rules: [r(orgRule.id, 1), r(wsRule.id, 3)] }),
      'rules.1.priority',
    );
    expectFieldError(
      await post(url, { name: 'Same', rules: [r(orgRule.id, 1), r(wsRule.id, 1)] }),
      'rules.1.priority',
    );
    expectFieldError(
      await post(url, { name: 'Zero', rules: [r(orgRule.id, 0)] }),
      'rules.0.priority',
    );
    expectFieldError(
      await post(url, { name: 'Twice', rules: [r(orgRule.id, 1), r(orgRule.id, 2)] }),
      'rules.1.rule',
    );
    expectFieldError(
      await post(url, { name: 'Theirs', rules: [r(wsRule.id, 1), r(strangerRule.id, 2)] }),
      'rules.1.rule',
    );
    expectFieldError(
      await post(url, { name: 'Missing', rules: [r(crypto.randomUUID(), 1)] }),
      'rules.0.rule',
    );
    expectFieldError(await post(url, { name: 'Bad id', rules: [r('x', 1)] }), 'rules.0.rule');
    // An organization's role cannot list a workspace's rule.
    expectFieldError(
      await post(s.org('custom-roles/'), { name: 'Org', rules: [r(wsRule.id, 1)] }),
      'rules.0.rule',
    );
    expect((await liveRoles()).length).toBe(before);
  });

  it('keeps role names unique per scope in any case (409 NAME_TAKEN), on create and rename', async () => {
    expect((await post(s.org('custom-roles/'), { name: 'Drivers', rules: [] })).statusCode).toBe(
      201,
    );
    const clash = await post(s.org('custom-roles/'), { name: 'DRIVERS', rules: [] });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe(ErrorCode.NAME_TAKEN);
    const other = (await post(s.org('custom-roles/'), { name: 'Loaders', rules: [] })).json();
    const rename = await s.send('PUT', s.org(`custom-roles/${other.id}/`), s.people.ADMIN, {
      name: 'drivers',
      rules: [],
    });
    expect(rename.statusCode).toBe(409);
  });

  it('replaces a role’s rules and name', async () => {
    const role = (
      await post(s.org('custom-roles/'), {
        name: 'Changing',
        rules: [{ rule: orgRule.id, priority: 1 }],
      })
    ).json();
    const second = await rule(s.org('access-rules/'), 'Second org rule');
    const res = await s.send('PUT', s.org(`custom-roles/${role.id}/`), s.people.ADMIN, {
      name: 'Changed',
      rules: [
        { rule: second.id, priority: 1 },
        { rule: orgRule.id, priority: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Changed',
      description: '',
      rules: [
        { rule: { id: second.id }, priority: 1 },
        { rule: { id: orgRule.id }, priority: 2 },
      ],
    });
    const stored = await t.ctx.db
      .select()
      .from(customRoleRules)
      .where(eq(customRoleRules.role_id, role.id));
    expect(stored).toHaveLength(2);
  });

  it('answers 404 for another organization’s role, and 403 for the organization’s role through a workspace', async () => {
    const theirs = (
      await post(
        `/v1/organizations/${s.otherOrgId}/custom-roles/`,
        { name: 'Theirs', rules: [] },
        s.people.STRANGER,
      )
    ).json();
    for (const url of [s.org(`custom-roles/${theirs.id}/`), s.ws(`custom-roles/${theirs.id}/`)]) {
      expect((await s.send('GET', url, s.people.OWNER)).statusCode).toBe(404);
      expect(
        (await s.send('PUT', url, s.people.OWNER, { name: 'Mine', rules: [] })).statusCode,
      ).toBe(404);
      expect((await s.send('DELETE', url, s.people.OWNER)).statusCode).toBe(404);
    }
    const orgRole = (await post(s.org('custom-roles/'), { name: 'Org level', rules: [] })).json();
    expect(
      (await s.send('GET', s.ws(`custom-roles/${orgRole.id}/`), s.people.MANAGER)).statusCode,
    ).toBe(200);
    const put = await s.send('PUT', s.ws(`custom-roles/${orgRole.id}/`), s.people.MANAGER, {
      name: 'X',
      rules: [],
    });
    expect(put.statusCode).toBe(403);
    expect(
      (await s.send('DELETE', s.ws(`custom-roles/${orgRole.id}/`), s.people.OWNER)).statusCode,
    ).toBe(403);
  });

  it('never changes or deletes a system role (403 SYSTEM_MANAGED)', async () => {
    const [system] = await t.ctx.db
      .insert(customRoles)
      .values({ organization_id: s.orgId, name: 'System role', is_system: true })
      .returning();
    const url = s.org(`custom-roles/${system!.id}/`);
    const put = await s.send('PUT', url, s.people.OWNER, { name: 'Mine', rules: [] });
    expect(put.json().code).toBe(ErrorCode.SYSTEM_MANAGED);
    expect((await s.send('DELETE', url, s.people.OWNER)).json().code).toBe(
      ErrorCode.SYSTEM_MANAGED,
    );
  });

  it('refuses to delete a role members hold, naming them; once taken from them it goes, name free', async () => {
    const role = (
      await post(s.org('custom-roles/'), {
        name: 'Held',
        rules: [{ rule: orgRule.id, priority: 1 }],
      })
    ).json();
    const assign = await s.send(
      'PUT',
      s.ws(`users/${s.people.STAFF.id}/custom-roles/`),
      s.people.OWNER,
      {
        roles: [{ role: role.id, priority: 1 }],
      },
    );
    expect(assign.statusCode, assign.body).toBe(200);
    const refused = await s.send('DELETE', s.org(`custom-roles/${role.id}/`), s.people.OWNER);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: ErrorCode.ROLE_IN_USE,
      details: {
        count: 1,
        members: [{ client: s.workspaceId, user: s.people.STAFF.id, email: s.people.STAFF.email }],
      },
    });
    await s.send('PUT', s.ws(`users/${s.people.STAFF.id}/custom-roles/`), s.people.OWNER, {
      roles: [],
    });
    expect(
      (await s.send('DELETE', s.org(`custom-roles/${role.id}/`), s.people.OWNER)).statusCode,
    ).toBe(204);
    expect(
      (await s.send('GET', s.org(`custom-roles/${role.id}/`), s.people.OWNER)).statusCode,
    ).toBe(404);
    expect((await post(s.org('custom-roles/'), { name: 'held', rules: [] })).statusCode).toBe(201);
  });

  it('drops the leftover assignments of people no longer members when the role is deleted', async () => {
    const role = (await post(s.ws('custom-roles/'), { name: 'Leftover', rules: [] })).json();
    const gone = await s.person();
    await t.ctx.db
      .insert(memberCustomRoles)
      .values({ client_id: s.workspaceId, user_id: gone.id, role_id: role.id, priority: 1 });
    expect(
      (await s.send('DELETE', s.ws(`custom-roles/${role.id}/`), s.people.OWNER)).statusCode,
    ).toBe(204);
    expect(
      await t.ctx.db.select().from(memberCustomRoles).where(eq(memberCustomRoles.role_id, role.id)),
    ).toEqual([]);
  });
});
