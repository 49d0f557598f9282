import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_CATALOGUE } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { observeStatements, type StatementLog } from '../../../test/support/statements.ts';
import type { Person } from '../../../test/support/tenants.ts';
import { permissionScene, ruleBody, type PermissionScene } from './test-scene.ts';

/**
 * The permissions routes send a fixed number of statements whatever the page size, the number of
 * rules and roles, and how many roles, rules and permissions a member's answer is made of.
 */
describe('statements per permissions request', () => {
  let t: TestApp;
  let s: PermissionScene;
  let log: StatementLog;
  let light: Person;
  let heavy: Person;
  let heavyRoles: { role: string; priority: number }[];

  beforeAll(async () => {
    t = await createTestApp();
    s = await permissionScene(t);
    // Eight roles of four rules each, every rule with every permission.
    const everything = PERMISSION_CATALOGUE.map((p, i) => ({
      permission: p.key,
      status: ['ALLOW', 'DENY', 'INHERIT'][i % 3]!,
    }));
    const created = async (url: string, body: unknown) => {
      const res = await s.send('POST', url, s.people.OWNER, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const roleIds: string[] = [];
    for (let r = 0; r < 8; r++) {
      // Odd roles are the organization's (its rules only); even ones the workspace's (both).
      const roleBase = r % 2 ? s.org() : s.ws();
      const rules: { rule: string; priority: number }[] = [];
      for (let k = 0; k < 4; k++) {
        const base = k % 2 ? s.org() : roleBase;
        rules.push({
          rule: await created(`${base}access-rules/`, ruleBody(`R${r}.${k}`, everything)),
          priority: k + 1,
        });
      }
      roleIds.push(await created(`${roleBase}custom-roles/`, { name: `Role ${r}`, rules }));
    }
    heavyRoles = roleIds.map((role, i) => ({ role, priority: i + 1 }));
    light = await s.workspaceMember('STAFF');
    heavy = await s.workspaceMember('STAFF');
    for (const [who, roles] of [
      [light, heavyRoles.slice(0, 1)],
      [heavy, heavyRoles],
    ] as const) {
      const res = await s.send('PUT', s.ws(`users/${who.id}/custom-roles/`), s.people.OWNER, {
        roles,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await s.send('PUT', s.ws(`users/${heavy.id}/permissions/TR/history/`), s.people.OWNER, {
      permissions: [{ permission: 'tr.history.view', status: 'DENY' }],
    });
    log = observeStatements(t.ctx.database);
  });
  afterAll(async () => {
    log.restore();
    await t.close();
  });

  const count = async (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) => {
    log.reset();
    const res = await s.send(method, url, s.people.ADMIN, payload);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return log.statements.length;
  };

  it('lists rules and roles in the same number of statements at any limit', async () => {
    for (const base of [s.org(), s.ws()]) {
      for (const list of ['access-rules/', 'custom-roles/']) {
        await count('GET', `${base}${list}?limit=1`); // the session held, as after any first request
        const small = await count('GET', `${base}${list}?limit=1`);
        expect(await count('GET', `${base}${list}?limit=999`)).toBe(small);
        expect(small).toBeLessThanOrEqual(4);
      }
    }
  });

  it('loads a member’s permissions in a fixed number of statements, however many roles and rules', async () => {
    const of = (who: Person, path: string) => s.ws(`users/${who.id}/${path}`);
    const lightCount = await count('GET', of(light, 'permissions/'));
    expect(await count('GET', of(heavy, 'permissions/'))).toBe(lightCount);
    // Session, access layer, membership, overrides, modules, assignments, the roles' tree.
    expect(lightCount).toBeLessThanOrEqual(8);
    const explain = 'permissions/explain?permission=tr.history.view';
    expect(await count('GET', of(heavy, explain))).toBe(await count('GET', of(light, explain)));
    expect(await count('GET', of(heavy, 'custom-roles/'))).toBe(
      await count('GET', of(light, 'custom-roles/')),
    );
  });

  it('previews and saves a member’s roles and overrides in a fixed number of statements', async () => {
    const of = (path: string) => s.ws(`users/${light.id}/${path}`);
    const one = { roles: heavyRoles.slice(0, 1) };
    const all = { roles: heavyRoles };
    expect(await count('POST', of('custom-roles/preview/'), all)).toBe(
      await count('POST', of('custom-roles/preview/'), one),
    );
    expect(await count('PUT', of('custom-roles/'), all)).toBe(
      await count('PUT', of('custom-roles/'), one),
    );
    const group = of('permissions/TR/history/');
    const few = { permissions: [{ permission: 'tr.history.view', status: 'DENY' }] };
    const both = {
      permissions: [...few.permissions, { permission: 'tr.history.extract', status: 'ALLOW' }],
    };
    expect(await count('PUT', group, both)).toBe(await count('PUT', group, few));
  });
});
