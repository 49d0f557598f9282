import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { accessRulePermissions, accessRules } from '../../db/schema/index.ts';
import { expectFieldError, permissionScene, ruleBody, type PermissionScene } from './test-scene.ts';

/**
 * Access rules at both levels: GET/POST …/access-rules/, GET/PUT/DELETE …/access-rules/{ruleId}/
 * under /v1/organizations/{orgId}/ and /v1/clients/{id}/.
 */
describe('access rules', () => {
  let t: TestApp;
  let s: PermissionScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await permissionScene(t);
  });
  afterAll(() => t.close());

  const liveRules = () =>
    t.ctx.db
      .select()
      .from(accessRules)
      .where(and(eq(accessRules.organization_id, s.orgId), isNull(accessRules.deleted_at)));
  const post = (url: string, body: unknown, who = s.people.OWNER) => s.send('POST', url, who, body);

  it('creates an organization rule and answers it, its permissions in catalogue order', async () => {
    const res = await post(
      s.org('access-rules/'),
      ruleBody(
        '  Packing floor ',
        [
          { permission: 'tr.fnsku.print', status: 'ALLOW' },
          { permission: 'tr.history.view', status: 'DENY' },
          { permission: 'tr.settings.update', status: 'INHERIT' },
        ],
        { description: 'For the packers', module: 'TR' },
      ),
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'Packing floor',
      description: 'For the packers',
      module: 'TR',
      scope: 'organization',
      organization: s.orgId,
      client: null,
      is_system: false,
      permissions: [
        { permission: 'tr.history.view', status: 'DENY' },
        { permission: 'tr.settings.update', status: 'INHERIT' },
        { permission: 'tr.fnsku.print', status: 'ALLOW' },
      ],
    });
    const read = await s.send('GET', s.org(`access-rules/${body.id}/`), s.people.ADMIN);
    expect(read.json()).toEqual(body);
  });

  it('refuses unknown, repeated and other-module permissions naming the item, writing nothing', async () => {
    const before = (await liveRules()).length;
    const url = s.org('access-rules/');
    expectFieldError(
      await post(
        url,
        ruleBody('Bad', [
          { permission: 'tr.history.view', status: 'ALLOW' },
          { permission: 'tr.teleport.use', status: 'ALLOW' },
        ]),
      ),
      'permissions.1.permission',
    );
    expectFieldError(
      await post(
        url,
        ruleBody('Bad', [
          { permission: 'tr.history.view', status: 'ALLOW' },
          { permission: 'tr.history.view', status: 'DENY' },
        ]),
      ),
      'permissions.1.permission',
    );
    expectFieldError(
      await post(
        url,
        ruleBody('Bad', [{ permission: 'tr.history.view', status: 'ALLOW' }], { module: 'MAP' }),
      ),
      'permissions.0.permission',
    );
    expectFieldError(
      await post(url, ruleBody('Bad', [{ permission: 'tr.history.view', status: 'MAYBE' }])),
      'permissions.0.status',
    );
    expectFieldError(await post(url, ruleBody('   ')), 'name');
    expectFieldError(await post(url, { ...ruleBody('Bad'), extra: 1 }), 'extra');
    expectFieldError(await post(url, { name: 'No permissions field' }), 'permissions');
    expect((await liveRules()).length).toBe(before);
  });

  it('keeps names unique per scope in any case, and lets a workspace reuse an organization’s name', async () => {
    expect((await post(s.org('access-rules/'), ruleBody('Night shift'))).statusCode).toBe(201);
    const clash = await post(s.org('access-rules/'), ruleBody('NIGHT SHIFT'));
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({
      code: ErrorCode.NAME_TAKEN,
      details: [{ field: 'name' }],
    });
    expect((await post(s.ws('access-rules/'), ruleBody('night shift'))).statusCode).toBe(201);
    expect((await post(s.ws('access-rules/'), ruleBody('Night Shift'))).statusCode).toBe(409);
    // Renaming onto another live name is refused too; keeping one's own name is fine.
    const other = (await post(s.org('access-rules/'), ruleBody('Day shift'))).json();
    const rename = await s.send(
      'PUT',
      s.org(`access-rules/${other.id}/`),
      s.people.OWNER,
      ruleBody('night SHIFT'),
    );
    expect(rename.statusCode).toBe(409);
    const same = await s.send(
      'PUT',
      s.org(`access-rules/${other.id}/`),
      s.people.OWNER,
      ruleBody('DAY shift'),
    );
    expect(same.statusCode).toBe(200);
    expect(same.json().name).toBe('DAY shift');
  });

  it('replaces a rule: what PUT leaves out is emptied', async () => {
    const created = (
      await post(
        s.ws('access-rules/'),
        ruleBody('Replace me', undefined, { description: 'x', module: 'TR' }),
      )
    ).json();
    const res = await s.send(
      'PUT',
      s.ws(`access-rules/${created.id}/`),
      s.people.MANAGER,
      ruleBody('Replaced', [{ permission: 'tr.fnsku.print', status: 'DENY' }]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: created.id,
      name: 'Replaced',
      description: '',
      module: null,
      scope: 'client',
      client: s.workspaceId,
      permissions: [{ permission: 'tr.fnsku.print', status: 'DENY' }],
    });
    const stored = await t.ctx.db
      .select()
      .from(accessRulePermissions)
      .where(eq(accessRulePermissions.rule_id, created.id));
    expect(stored).toEqual([{ rule_id: created.id, permission: 'tr.fnsku.print', status: 'DENY' }]);
  });

  it('lists at the workspace its own rules and its organization’s; the organization only its own', async () => {
    const orgRule = (await post(s.org('access-rules/'), ruleBody('Listed org rule'))).json();
    const wsRule = (await post(s.ws('access-rules/'), ruleBody('Listed ws rule'))).json();
    const names = async (url: string) =>
      (await s.send('GET', url, s.people.OWNER)).json().results.map((r: { id: string }) => r.id);
    expect(await names(s.ws('access-rules/?limit=999'))).toEqual(
      expect.arrayContaining([orgRule.id, wsRule.id]),
    );
    const orgList = await names(s.org('access-rules/?limit=999'));
    expect(orgList).toContain(orgRule.id);
    expect(orgList).not.toContain(wsRule.id);
    // The workspace reads the organization's rule but may not change or delete it.
    expect(
      (await s.send('GET', s.ws(`access-rules/${orgRule.id}/`), s.people.MANAGER)).statusCode,
    ).toBe(200);
    const put = await s.send(
      'PUT',
      s.ws(`access-rules/${orgRule.id}/`),
      s.people.OWNER,
      ruleBody('Hijack'),
    );
    expect(put.statusCode).toBe(403);
    expect(
      (await s.send('DELETE', s.ws(`access-rules/${orgRule.id}/`), s.people.OWNER)).statusCode,
    ).toBe(403);
    // Through the organization, a workspace's rule does not exist.
    expect(
      (await s.send('GET', s.org(`access-rules/${wsRule.id}/`), s.people.OWNER)).statusCode,
    ).toBe(404);
  });

  it('pages the list: count, next and previous; a page past the end is empty with the count', async () => {
    const first = (await s.send('GET', s.org('access-rules/?limit=1'), s.people.OWNER)).json();
    expect(first.results).toHaveLength(1);
    expect(first.count).toBeGreaterThan(1);
    expect(first).toMatchObject({ next: 2, previous: null });
    const past = (
      await s.send('GET', s.org('access-rules/?limit=1&page=999'), s.people.OWNER)
    ).json();
    expect(past).toMatchObject({ count: first.count, next: null, previous: 998, results: [] });
    expectFieldError(await s.send('GET', s.org('access-rules/?limit=0'), s.people.OWNER), 'limit');
  });

  it('answers 404 for a rule of another organization, or of another workspace, or none at all', async () => {
    const theirs = (
      await post(
        `/v1/organizations/${s.otherOrgId}/access-rules/`,
        ruleBody('Theirs'),
        s.people.STRANGER,
      )
    ).json();
    const theirWs = (
      await post(
        `/v1/clients/${s.elsewhereId}/access-rules/`,
        ruleBody('Theirs too'),
        s.people.STRANGER,
      )
    ).json();
    for (const id of [theirs.id, theirWs.id, crypto.randomUUID()]) {
      for (const url of [s.org(`access-rules/${id}/`), s.ws(`access-rules/${id}/`)]) {
        expect((await s.send('GET', url, s.people.OWNER)).statusCode).toBe(404);
        expect((await s.send('PUT', url, s.people.OWNER, ruleBody('Mine now'))).statusCode).toBe(
          404,
        );
        expect((await s.send('DELETE', url, s.people.OWNER)).statusCode).toBe(404);
      }
    }
    const [row] = await t.ctx.db.select().from(accessRules).where(eq(accessRules.id, theirs.id));
    expect(row).toMatchObject({ name: 'Theirs', deleted_at: null });
    expectFieldError(
      await s.send('GET', s.org('access-rules/not-a-uuid/'), s.people.OWNER),
      'ruleId',
    );
  });

  it('never changes or deletes a system rule (403 SYSTEM_MANAGED)', async () => {
    const [system] = await t.ctx.db
      .insert(accessRules)
      .values({ organization_id: s.orgId, name: 'System made', is_system: true })
      .returning();
    const url = s.org(`access-rules/${system!.id}/`);
    expect((await s.send('GET', url, s.people.OWNER)).json()).toMatchObject({ is_system: true });
    const put = await s.send('PUT', url, s.people.OWNER, ruleBody('Changed'));
    expect(put.statusCode).toBe(403);
    expect(put.json().code).toBe(ErrorCode.SYSTEM_MANAGED);
    const del = await s.send('DELETE', url, s.people.OWNER);
    expect(del.json().code).toBe(ErrorCode.SYSTEM_MANAGED);
    const [row] = await t.ctx.db.select().from(accessRules).where(eq(accessRules.id, system!.id));
    expect(row).toMatchObject({ name: 'System made', deleted_at: null });
  });

  it('deletes softly (the name is free again), and refuses a rule that roles list, naming them', async () => {
    const rule = (await post(s.org('access-rules/'), ruleBody('Short lived'))).json();
    const role = (
      await post(s.ws('custom-roles/'), {
        name: 'Uses it',
        rules: [{ rule: rule.id, priority: 1 }],
      })
    ).json();
    const refused = await s.send('DELETE', s.org(`access-rules/${rule.id}/`), s.people.ADMIN);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: ErrorCode.RULE_IN_USE,
      details: { roles: [{ id: role.id, name: 'Uses it', scope: 'client' }] },
    });
    expect(
      (
        await s.send('PUT', s.ws(`custom-roles/${role.id}/`), s.people.OWNER, {
          name: 'Uses it',
          rules: [],
        })
      ).statusCode,
    ).toBe(200);
    const del = await s.send('DELETE', s.org(`access-rules/${rule.id}/`), s.people.ADMIN);
    expect(del.statusCode).toBe(204);
    expect(
      (await s.send('GET', s.org(`access-rules/${rule.id}/`), s.people.OWNER)).statusCode,
    ).toBe(404);
    const [row] = await t.ctx.db.select().from(accessRules).where(eq(accessRules.id, rule.id));
    expect(row!.deleted_at).not.toBeNull();
    expect((await post(s.org('access-rules/'), ruleBody('SHORT LIVED'))).statusCode).toBe(201);
    expect(
      (await s.send('DELETE', s.org(`access-rules/${rule.id}/`), s.people.ADMIN)).statusCode,
    ).toBe(404);
  });
});
