import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { tenantScene, type Person, type TenantScene } from './test-scene.ts';

/** GET /v1/clients/{id}/users/{userId}/settings/: a member's role, modules and workspace name. */
describe('GET /v1/clients/{id}/users/{userId}/settings/', () => {
  let t: TestApp;
  let s: TenantScene;
  beforeAll(async () => {
    t = await createTestApp();
    s = await tenantScene(t);
  });
  afterAll(() => t.close());

  const url = (clientId: string, userId: string) =>
    `/v1/clients/${clientId}/users/${userId}/settings/`;
  const get = (clientId: string, target: { id: string }, who?: Person) =>
    t.app.inject({ method: 'GET', url: url(clientId, target.id), headers: who?.headers ?? {} });

  it('answers a member’s own role, the modules and the workspace’s name', async () => {
    const { north } = s.clients;
    const res = await get(north.id, s.people.staff, s.people.staff);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      role: { key: 'STAFF', name: 'Staff' },
      client_modules: [{ module: 'TR', enabled: true }],
      client_information: { name: 'North' },
    });
    for (const [who, role] of [
      [s.people.owner, 'OWNER'],
      [s.people.admin, 'ADMIN'],
      [s.people.client, 'CLIENT'],
      [s.people.manager, 'MANAGER'],
    ] as const) {
      expect((await get(north.id, who, who)).json().role.key).toBe(role);
    }
    // A member of the workspace whose organization invitation is still pending (it is listed).
    expect((await get(north.id, s.pending, s.pending)).json().role.key).toBe('CLIENT');
    // The organization's ADMIN acts as ADMIN of a workspace without being a member of it.
    const alpha = await get(s.clients.alpha.id, s.people.admin, s.people.admin);
    expect(alpha.json()).toEqual({
      role: { key: 'ADMIN', name: 'Admin' },
      client_modules: [{ module: 'TR', enabled: false }],
      client_information: { name: 'alpha lane' },
    });
  });

  it('lets OWNER, ADMIN and MANAGER read another member’s; STAFF and CLIENT get 403', async () => {
    const { north } = s.clients;
    const { owner, admin, manager, staff, client } = s.people;
    for (const [who, target, status, role] of [
      [owner, staff, 200, 'STAFF'],
      [admin, client, 200, 'CLIENT'],
      [manager, client, 200, 'CLIENT'],
      [manager, owner, 200, 'OWNER'],
      [staff, client, 403, null],
      [client, staff, 403, null],
    ] as const) {
      const res = await get(north.id, target, who);
      expect({ who: who.email, status: res.statusCode }).toEqual({ who: who.email, status });
      if (role) expect(res.json().role.key).toBe(role);
      else expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    }
  });

  it('answers 404 outside the workspace, for a pending one, and for a user who is not a member', async () => {
    const { north, alpha, staffDraft, elsewhere } = s.clients;
    const { owner, staff } = s.people;
    for (const [clientId, target, who] of [
      [north.id, s.stranger, s.stranger], // not a member of the organization
      [elsewhere.id, owner, owner], // another organization's workspace
      [alpha.id, staff, staff], // a workspace membership still pending
      [staffDraft.id, staff, staff], // waiting for approval: its OWNERs and ADMINs only
      [north.id, s.stranger, owner], // the target is not a member
      [s.clients.deleted.id, owner, owner],
      [crypto.randomUUID(), owner, owner],
    ] as const) {
      const res = await get(clientId, target, who);
      expect(res.statusCode, `${who.email} → ${clientId}`).toBe(404);
      expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
    }
    // The organization's OWNER reads the pending workspace's creator.
    expect((await get(staffDraft.id, staff, owner)).json().role.key).toBe('OWNER');
  });

  it('answers 400 naming a malformed id, and 401 anonymous', async () => {
    const { owner } = s.people;
    for (const [path, field] of [
      [url('nope', owner.id), 'id'],
      [url(s.clients.north.id, 'nope'), 'userId'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: path, headers: owner.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    expect((await get(s.clients.north.id, owner)).statusCode).toBe(401);
  });
});
