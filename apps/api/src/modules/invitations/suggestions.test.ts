import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import type { Person } from '../../../test/support/tenants.ts';
import { addClientMember, createClient, createUser } from '../../seed/factories.ts';
import { expectError, invitationScene, type InvitationScene } from './test-scene.ts';

/** GET /v1/clients/{id}/users/invitation/suggestion: whom the caller might invite. */
describe('workspace invitation suggestions', () => {
  let t: TestApp;
  let s: InvitationScene;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    s = await invitationScene(t);
    const db = t.ctx.db;
    const member = async (clientId: string, label: string, status?: 'PENDING') => {
      const user = await createUser(db, {
        email: `${label}.${clientId.slice(0, 8)}@example.com`,
        first_name: label.charAt(0).toUpperCase() + label.slice(1),
        last_name: 'Candidate',
      });
      await addClientMember(db, { clientId, userId: user.id, role: 'STAFF', status });
      ids[label] = user.id;
      return user;
    };
    // Another workspace of the organization: its members are suggested to its OWNERs and ADMINs.
    const south = await createClient(db, { organizationId: s.orgId, ownerId: s.people.OWNER.id });
    await member(south.id, 'alice');
    await member(south.id, 'bob', 'PENDING');
    await member(south.id, 'per%cent');
    const carol = await member(south.id, 'carol');
    await addClientMember(db, { clientId: s.north.id, userId: carol.id, role: 'STAFF' });
    // The workspace MANAGER of north owns a workspace of another organization.
    const east = await createClient(db, {
      organizationId: s.otherOrgId,
      ownerId: s.wsManager.id,
    });
    await member(east.id, 'erin');
    // The stranger's own workspace: nobody of ours sees its members.
    const elsewhere = await createClient(db, {
      organizationId: s.otherOrgId,
      ownerId: s.people.STRANGER.id,
    });
    await member(elsewhere.id, 'dave');
    for (let i = 0; i < 12; i++) await member(south.id, `many${String(i).padStart(2, '0')}`);
  });
  afterAll(() => t.close());

  const suggest = (who: Person | 'anonymous', query = '') =>
    s.send('GET', `/v1/clients/${s.north.id}/users/invitation/suggestion${query}`, who);
  const emails = async (who: Person, query = '') =>
    ((await suggest(who, query)).json() as { email: string }[]).map((u) => u.email.split('.')[0]);

  it('suggests members of the other workspaces the caller administers, not of this one', async () => {
    const res = await suggest(s.people.OWNER, '?key=a');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: ids.alice,
        email: expect.stringMatching(/^alice\./),
        first_name: 'Alice',
        last_name: 'Candidate',
        avatar: null,
      },
      ...Array.from({ length: 9 }, () => expect.objectContaining({ last_name: 'Candidate' })),
    ]);
    const all = await emails(s.people.ADMIN, '?limit=50');
    expect(all).toContain('alice');
    expect(all).toContain('per%cent');
    for (const absent of ['bob', 'carol', 'dave', 'erin']) expect(all).not.toContain(absent);
    expect(all).toHaveLength(14);
  });

  it('matches the key on e-mail and names, any case, wildcards taken literally', async () => {
    expect(await emails(s.people.OWNER, '?key=ALI')).toEqual(['alice']);
    expect(await emails(s.people.OWNER, '?key=alice%20candidate')).toEqual(['alice']);
    expect(await emails(s.people.OWNER, '?key=%25')).toEqual(['per%cent']);
    expect(await emails(s.people.OWNER, '?key=many_')).toEqual([]);
    expect(await emails(s.people.OWNER, '?key=zzz')).toEqual([]);
  });

  it('follows the workspace roles: a MANAGER sees the members of the workspace they own', async () => {
    expect(await emails(s.wsManager, '?limit=50')).toEqual(['erin']);
  });

  it('limits to 10 unless asked, at most 50', async () => {
    expect(await emails(s.people.OWNER)).toHaveLength(10);
    expect(await emails(s.people.OWNER, '?limit=3')).toHaveLength(3);
    for (const bad of ['?limit=51', '?limit=0', '?limit=x', '?other=1']) {
      expectError(await suggest(s.people.OWNER, bad), 400, ErrorCode.VALIDATION_ERROR);
    }
  });

  it('answers the permission matrix', async () => {
    const outsider = await s.member('STAFF');
    for (const [who, person, status] of [
      ['anonymous', 'anonymous', 401],
      ['ADMIN', s.people.ADMIN, 200],
      ['workspace MANAGER', s.wsManager, 200],
      ['workspace STAFF', s.wsStaff, 403],
      ['organization STAFF outside it', outsider, 404],
      ['CLIENT', s.people.CLIENT, 404],
      ['STRANGER', s.people.STRANGER, 404],
    ] as const) {
      const res = await suggest(person);
      expect({ who, status: res.statusCode }).toEqual({ who, status });
    }
  });
});
