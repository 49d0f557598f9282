import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { organizationMembers, organizations } from '../../db/schema/index.ts';
import { createOrganization } from '../../seed/factories.ts';
import { person, tenantScene, type Person, type TenantScene } from './test-scene.ts';

interface Entry {
  organization: { id: string; name: string; has_access: boolean; role: { key: string } | null };
  clients: { id: string; name: string; active: boolean; role: { key: string } | null }[];
}

/** GET /v1/me/organizations/and/clients/: who sees which workspaces, and how they are paged. */
describe('GET /v1/me/organizations/and/clients/', () => {
  let t: TestApp;
  let s: TenantScene;
  beforeAll(async () => {
    t = await createTestApp();
    s = await tenantScene(t);
  });
  afterAll(() => t.close());

  const URL = '/v1/me/organizations/and/clients/';
  const get = (who?: Person, query = '') =>
    t.app.inject({ method: 'GET', url: `${URL}${query}`, headers: who?.headers ?? {} });
  /** Each organization's workspaces as "name:ROLE" (role of the caller), in the answer's order. */
  const seen = async (who: Person) => {
    const res = await get(who);
    expect(res.statusCode).toBe(200);
    return (res.json().results as Entry[]).map((e) => ({
      org: `${e.organization.name}:${e.organization.role?.key}:${e.organization.has_access}`,
      clients: e.clients.map((c) => `${c.name}:${c.role?.key ?? '-'}`),
    }));
  };

  it('shows OWNER and ADMIN every live workspace with a module of the profile, pending ones too', async () => {
    expect(await seen(s.people.owner)).toEqual([
      {
        org: 'Acme Freight:OWNER:true',
        clients: [
          'alpha lane:OWNER',
          'North:OWNER',
          'Pending by admin:OWNER',
          'Pending by staff:OWNER',
        ],
      },
    ]);
    expect(await seen(s.people.admin)).toEqual([
      {
        org: 'Acme Freight:ADMIN:true',
        clients: [
          'alpha lane:ADMIN',
          'North:ADMIN',
          'Pending by admin:OWNER',
          'Pending by staff:ADMIN',
        ],
      },
    ]);
  });

  it('shows others the active workspaces they belong to and the pending ones they created', async () => {
    expect(await seen(s.people.staff)).toEqual([
      { org: 'Acme Freight:STAFF:true', clients: ['North:STAFF', 'Pending by staff:OWNER'] },
    ]);
    expect(await seen(s.people.client)).toEqual([
      { org: 'Acme Freight:CLIENT:true', clients: ['North:CLIENT'] },
    ]);
    expect(await seen(s.people.manager)).toEqual([
      { org: 'Acme Freight:CLIENT:true', clients: ['North:MANAGER'] },
    ]);
    // An invitation to the organization still pending: no access, but the workspace is listed.
    expect(await seen(s.pending)).toEqual([
      { org: 'Acme Freight:CLIENT:false', clients: ['North:CLIENT'] },
    ]);
    expect(await seen(s.stranger)).toEqual([
      { org: 'Other Co:OWNER:true', clients: ['Elsewhere:OWNER'] },
    ]);
  });

  it('answers every field of an entry, modules with their state', async () => {
    const [entry] = (await get(s.people.owner)).json().results;
    expect(entry.organization).toEqual({
      id: s.org.id,
      name: 'Acme Freight',
      logo: null,
      has_access: true,
      role: { key: 'OWNER', name: 'Owner' },
    });
    const byName = Object.fromEntries(entry.clients.map((c: { name: string }) => [c.name, c]));
    expect(byName['North']).toEqual({
      id: s.clients.north.id,
      name: 'North',
      logo: null,
      active: true,
      role: { key: 'OWNER', name: 'Owner' },
      modules: [{ module: 'TR', enabled: true }],
      dashboard_button_color: '#1985ac',
    });
    expect(byName['alpha lane'].modules).toEqual([{ module: 'TR', enabled: false }]);
    expect(byName['Pending by staff'].active).toBe(false);
  });

  it('sorts organizations by name case-insensitively and pages them', async () => {
    const who = await person(t);
    for (const name of ['beta co', 'Gamma', 'Alpha Co']) {
      await createOrganization(t.ctx.db, { ownerId: who.id, name });
    }
    const names = (body: { results: Entry[] }) => body.results.map((e) => e.organization.name);
    const all = (await get(who)).json();
    expect(all).toMatchObject({ count: 3, next: null, previous: null });
    expect(names(all)).toEqual(['Alpha Co', 'beta co', 'Gamma']);
    const page2 = (await get(who, '?page=2&limit=2')).json();
    expect(page2).toMatchObject({ count: 3, next: null, previous: 1 });
    expect(names(page2)).toEqual(['Gamma']);
    const beyond = (await get(who, '?page=9&limit=2')).json();
    expect(beyond).toMatchObject({ count: 3, next: null, results: [] });
  });

  it('answers 250 organizations a page unless told otherwise', async () => {
    const who = await person(t);
    const orgs = await t.ctx.db
      .insert(organizations)
      .values(
        Array.from({ length: 251 }, (_, i) => ({ name: `Bulk ${String(i).padStart(3, '0')}` })),
      )
      .returning({ id: organizations.id });
    await t.ctx.db
      .insert(organizationMembers)
      .values(
        orgs.map((o) => ({ organization_id: o.id, user_id: who.id, role: 'STAFF' as const })),
      );
    const body = (await get(who)).json();
    expect(body).toMatchObject({ count: 251, next: 2 });
    expect(body.results).toHaveLength(250);
    expect((await get(who, '?limit=999')).json().results).toHaveLength(251);
  });

  it('answers 400 naming the parameter for a bad page or limit, and 401 anonymous', async () => {
    for (const [query, field] of [
      ['?limit=1000', 'limit'],
      ['?limit=-1', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?page=0', 'page'],
      ['?page=', 'page'],
      ['?sort=name', 'sort'],
    ] as const) {
      const res = await get(s.people.owner, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const anonymous = await get();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
  });
});
