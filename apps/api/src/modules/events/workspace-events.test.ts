import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { recordedBy } from './test-events.ts';

/**
 * Issue 21 item 3: workspaces and their modules record their events in the transaction of the
 * change, through the real routes: workspace.created, workspace.approved, workspace.deleted,
 * module.enabled, module.disabled (subject `workspace:<id>` for all). No change, no event.
 */
describe('workspace and module events', () => {
  let t: TestApp;
  let s: TenantScene;
  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const clients = (rest = '') => `/v1/organizations/${s.orgId}/clients/${rest}`;
  /** Runs a request that must answer `status`; answers it and the events it recorded. */
  async function request(
    status: number,
    method: 'POST' | 'PATCH' | 'DELETE',
    url: string,
    who: Person,
    body?: unknown,
  ) {
    let answer: unknown;
    const recorded = await recordedBy(t, s.orgId, async () => {
      const res = await s.send(method, url, who, body);
      expect(res.statusCode, res.body).toBe(status);
      answer = res.statusCode === 204 ? null : res.json();
    });
    return { answer: answer as { id: string }, recorded };
  }

  it('created active by an ADMIN with the app’s modules on; deleted', async () => {
    const { answer, recorded } = await request(201, 'POST', clients(), s.people.ADMIN, {
      name: 'Harbour',
    });
    const id = answer.id;
    expect(recorded).toEqual([
      {
        type: 'workspace.created',
        subject: `workspace:${id}`,
        data: { client_id: id, name: 'Harbour', active: true, modules: ['TR'] },
      },
    ]);
    expect((await request(204, 'DELETE', clients(`${id}/`), s.people.OWNER)).recorded).toEqual([
      { type: 'workspace.deleted', subject: `workspace:${id}`, data: { client_id: id } },
    ]);
    // Gone already: nothing more.
    expect((await request(404, 'DELETE', clients(`${id}/`), s.people.OWNER)).recorded).toEqual([]);
  });

  it('created by STAFF waiting for approval; approved with its modules switched on', async () => {
    const { answer, recorded } = await request(201, 'POST', clients(), s.people.STAFF, {
      name: 'Depot',
    });
    const id = answer.id;
    expect(recorded).toEqual([
      {
        type: 'workspace.created',
        subject: `workspace:${id}`,
        data: { client_id: id, name: 'Depot', active: false, modules: [] },
      },
    ]);
    expect(
      (await request(200, 'POST', clients(`${id}/approve/`), s.people.OWNER)).recorded,
    ).toEqual([
      {
        type: 'workspace.approved',
        subject: `workspace:${id}`,
        data: { client_id: id, modules: ['TR'] },
      },
    ]);
    // Approved already (400), a clashing name (409): nothing recorded.
    expect(
      (await request(400, 'POST', clients(`${id}/approve/`), s.people.OWNER)).recorded,
    ).toEqual([]);
    expect(
      (await request(409, 'POST', clients(), s.people.OWNER, { name: 'depot' })).recorded,
    ).toEqual([]);
  });

  it('modules switched one at a time or by application: one event per module changed', async () => {
    const { answer } = await request(201, 'POST', clients(), s.people.OWNER, { name: 'Modules' });
    const id = answer.id;
    const subject = `workspace:${id}`;
    const module = (code: string, enabled: boolean) =>
      request(200, 'PATCH', `/v1/clients/${id}/modules/${code}/`, s.people.OWNER, { enabled });
    expect((await module('TR', false)).recorded).toEqual([
      { type: 'module.disabled', subject, data: { client_id: id, module: 'TR' } },
    ]);
    // The state it has: no change, no event.
    expect((await module('TR', false)).recorded).toEqual([]);
    expect((await module('TR', true)).recorded).toEqual([
      { type: 'module.enabled', subject, data: { client_id: id, module: 'TR' } },
    ]);

    const app = (name: string, enabled: boolean, status = 200) =>
      request(status, 'POST', clients(`${id}/apps/${name}/`), s.people.OWNER, { enabled });
    const matrix = ['DS', 'RA', 'MT', 'MAP'];
    const on = (await app('matrix', true)).recorded;
    expect(on.map((e) => e.data.module).sort()).toEqual([...matrix].sort());
    expect(on.every((e) => e.type === 'module.enabled' && e.subject === subject)).toBe(true);
    const off = (await app('matrix', false)).recorded;
    expect(off.map((e) => e.data.module).sort()).toEqual([...matrix].sort());
    expect(off.every((e) => e.type === 'module.disabled')).toBe(true);
    // The last enabled application: refused, nothing recorded.
    expect((await app('transit', false, 409)).recorded).toEqual([]);
  });

  it('a change of name, logo or colour records no event (the catalogue has none)', async () => {
    const { answer } = await request(201, 'POST', clients(), s.people.OWNER, { name: 'Renamed' });
    const renamed = await request(200, 'PATCH', `/v1/clients/${answer.id}/`, s.people.OWNER, {
      name: 'Renamed again',
    });
    expect(renamed.recorded).toEqual([]);
  });
});
