import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import type { Person } from '../../../test/support/tenants.ts';
import {
  permissionScene,
  ruleBody,
  WORKSPACE_PEOPLE,
  type PermissionScene,
  type WorkspacePerson,
} from './test-scene.ts';

/**
 * Every route of the module against every kind of caller: anonymous 401; at the organization
 * level OWNER and ADMIN may, STAFF and CLIENT get 403; at the workspace level OWNER, ADMIN and
 * MANAGER may, STAFF and CLIENT get 403; a member of another organization always gets 404.
 */
describe('permission matrix of the permissions routes', () => {
  let t: TestApp;
  let s: PermissionScene;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp();
    s = await permissionScene(t);
  });
  afterAll(() => t.close());

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  interface Case {
    name: string;
    /** Makes what the request acts on (as the OWNER) and answers the request. */
    request: () => Promise<{ method: Method; url: string; payload?: unknown }>;
    allowed: readonly WorkspacePerson[];
    ok: number;
  }

  const create = async (url: string, payload: unknown) => {
    const res = await s.send('POST', url, s.people.OWNER, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const fresh = () => `Matrix ${n++}`;
  const ORG_ADMINS = ['OWNER', 'ADMIN'] as const;
  const WS_MANAGERS = ['OWNER', 'ADMIN', 'MANAGER'] as const;

  const levelCases = (level: 'org' | 'ws'): Case[] => {
    const at = (path: string) => (level === 'org' ? s.org(path) : s.ws(path));
    const allowed = level === 'org' ? ORG_ADMINS : WS_MANAGERS;
    const rule = () => create(at('access-rules/'), ruleBody(fresh()));
    const role = async () =>
      create(at('custom-roles/'), { name: fresh(), rules: [{ rule: await rule(), priority: 1 }] });
    return [
      {
        name: 'catalogue',
        request: async () => ({ method: 'GET', url: at('permissions/catalogue/') }),
        allowed,
        ok: 200,
      },
      {
        name: 'list rules',
        request: async () => ({ method: 'GET', url: at('access-rules/') }),
        allowed,
        ok: 200,
      },
      {
        name: 'create rule',
        request: async () => ({
          method: 'POST',
          url: at('access-rules/'),
          payload: ruleBody(fresh()),
        }),
        allowed,
        ok: 201,
      },
      {
        name: 'read rule',
        request: async () => ({ method: 'GET', url: at(`access-rules/${await rule()}/`) }),
        allowed,
        ok: 200,
      },
      {
        name: 'replace rule',
        request: async () => ({
          method: 'PUT',
          url: at(`access-rules/${await rule()}/`),
          payload: ruleBody(fresh()),
        }),
        allowed,
        ok: 200,
      },
      {
        name: 'delete rule',
        request: async () => ({ method: 'DELETE', url: at(`access-rules/${await rule()}/`) }),
        allowed,
        ok: 204,
      },
      {
        name: 'list roles',
        request: async () => ({ method: 'GET', url: at('custom-roles/') }),
        allowed,
        ok: 200,
      },
      {
        name: 'create role',
        request: async () => ({
          method: 'POST',
          url: at('custom-roles/'),
          payload: { name: fresh(), rules: [{ rule: await rule(), priority: 1 }] },
        }),
        allowed,
        ok: 201,
      },
      {
        name: 'read role',
        request: async () => ({ method: 'GET', url: at(`custom-roles/${await role()}/`) }),
        allowed,
        ok: 200,
      },
      {
        name: 'replace role',
        request: async () => ({
          method: 'PUT',
          url: at(`custom-roles/${await role()}/`),
          payload: { name: fresh(), rules: [] },
        }),
        allowed,
        ok: 200,
      },
      {
        name: 'delete role',
        request: async () => ({ method: 'DELETE', url: at(`custom-roles/${await role()}/`) }),
        allowed,
        ok: 204,
      },
    ];
  };

  const memberCases = (): Case[] => {
    // The target is a STAFF member of the workspace whom no caller is.
    const target = async () => (await s.workspaceMember('STAFF')).id;
    const member = async (path: string) => s.ws(`users/${await target()}/${path}`);
    const roles = { roles: [] };
    return [
      {
        name: 'member permissions',
        request: async () => ({ method: 'GET', url: await member('permissions/') }),
        allowed: WS_MANAGERS,
        ok: 200,
      },
      {
        name: 'explain',
        request: async () => ({
          method: 'GET',
          url: await member('permissions/explain?permission=tr.history.view'),
        }),
        allowed: WS_MANAGERS,
        ok: 200,
      },
      {
        name: 'group overrides',
        request: async () => ({
          method: 'PUT',
          url: await member('permissions/TR/history/'),
          payload: { permissions: [{ permission: 'tr.history.view', status: 'DENY' }] },
        }),
        allowed: WS_MANAGERS,
        ok: 200,
      },
      {
        name: 'member roles',
        request: async () => ({ method: 'GET', url: await member('custom-roles/') }),
        allowed: WS_MANAGERS,
        ok: 200,
      },
      {
        name: 'set member roles',
        request: async () => ({
          method: 'PUT',
          url: await member('custom-roles/'),
          payload: roles,
        }),
        allowed: WS_MANAGERS,
        ok: 200,
      },
      {
        name: 'preview member roles',
        request: async () => ({
          method: 'POST',
          url: await member('custom-roles/preview/'),
          payload: roles,
        }),
        allowed: WS_MANAGERS,
        ok: 200,
      },
    ];
  };

  const expectedStatus = (c: Case, who: WorkspacePerson | 'anonymous') => {
    if (who === 'anonymous') return 401;
    if (who === 'STRANGER') return 404;
    return (c.allowed as readonly string[]).includes(who) ? c.ok : 403;
  };

  const run = (cases: () => Case[]) => async () => {
    const seen: string[] = [];
    for (const c of cases()) {
      for (const who of [...WORKSPACE_PEOPLE, 'anonymous'] as const) {
        const { method, url, payload } = await c.request();
        const caller: Person | 'anonymous' = who === 'anonymous' ? who : s.people[who];
        const res = await s.send(method, url, caller, payload);
        seen.push(`${c.name} ${who} ${res.statusCode}`);
        expect(res.statusCode, `${c.name} as ${who}: ${res.body}`).toBe(expectedStatus(c, who));
        if (res.statusCode >= 400) expect(res.json()).toHaveProperty('code');
      }
    }
    expect(seen.length).toBeGreaterThan(0);
  };

  it(
    'organization level: OWNER and ADMIN only',
    run(() => levelCases('org')),
  );
  it(
    'workspace level: OWNER, ADMIN and MANAGER only',
    run(() => levelCases('ws')),
  );
  it('a member’s permissions and roles: OWNER, ADMIN and MANAGER only', run(memberCases));
});
