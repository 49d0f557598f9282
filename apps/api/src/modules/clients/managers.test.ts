import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type OrgRole, type Role } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { clients } from '../../db/schema/index.ts';
import { addClientMember, addOrganizationMember, createClient } from '../../seed/factories.ts';

/**
 * A workspace's account manager and special project manager (REFERENCE): in the workspace's
 * answers only for users of INTERNAL_EMAIL_DOMAINS; changed only by them, with the right to change
 * the workspace. Each role is tried twice, by an internal and by an ordinary address.
 */
const INTERNAL = 'crew.example';
const FIELDS = ['account_manager', 'special_project_manager'];

type Kind = 'internal' | 'ordinary';
/** Organization role, then workspace role (null: no membership of the workspace). */
const SEATS = {
  orgOwner: ['OWNER', null],
  orgAdmin: ['ADMIN', null],
  wsOwner: ['STAFF', 'OWNER'],
  wsAdmin: ['STAFF', 'ADMIN'],
  wsManager: ['STAFF', 'MANAGER'],
  wsStaff: ['STAFF', 'STAFF'],
  wsClient: ['CLIENT', 'CLIENT'],
} as const satisfies Record<string, [OrgRole, Role | null]>;
type Seat = keyof typeof SEATS;
const EDITORS: Seat[] = ['orgOwner', 'orgAdmin', 'wsOwner', 'wsAdmin'];

describe('workspace managers for internal-domain users', () => {
  let t: TestApp;
  let s: TenantScene;
  let clientId: string;
  const people = {} as Record<Kind, Record<Seat, Person>>;
  let internalStranger: Person;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp({ INTERNAL_EMAIL_DOMAINS: `other.example, ${INTERNAL.toUpperCase()}` });
    s = await createTenantScene(t);
    const ws = await createClient(t.ctx.db, { organizationId: s.orgId, name: 'Harbour' });
    clientId = ws.id;
    await t.ctx.db
      .update(clients)
      .set({ account_manager: 'Ann Account', special_project_manager: null })
      .where(eq(clients.id, clientId));
    for (const kind of ['internal', 'ordinary'] as const) {
      people[kind] = {} as Record<Seat, Person>;
      for (const [seat, [orgRole, wsRole]] of Object.entries(SEATS) as [
        Seat,
        [OrgRole, Role | null],
      ][]) {
        const domain = kind === 'internal' ? INTERNAL : 'example.com';
        const person = await s.person({ email: `${seat}.${n++}@${domain}` });
        await addOrganizationMember(t.ctx.db, {
          organizationId: s.orgId,
          userId: person.id,
          role: orgRole,
        });
        if (wsRole) await addClientMember(t.ctx.db, { clientId, userId: person.id, role: wsRole });
        people[kind][seat] = person;
      }
    }
    // An internal address owning another organization: internal staff see nothing outside theirs.
    internalStranger = await s.person({ email: `stranger.${n++}@${INTERNAL}` });
    await addOrganizationMember(t.ctx.db, {
      organizationId: s.otherOrgId,
      userId: internalStranger.id,
      role: 'OWNER',
    });
  });
  afterAll(() => t.close());

  const url = () => `/v1/clients/${clientId}/`;
  const stored = async () => {
    const [row] = await t.ctx.db.select().from(clients).where(eq(clients.id, clientId));
    return {
      account_manager: row!.account_manager,
      special_project_manager: row!.special_project_manager,
    };
  };

  describe('GET /v1/clients/{id}/', () => {
    it('includes both fields for every internal member who may read it', async () => {
      for (const seat of Object.keys(SEATS) as Seat[]) {
        const res = await s.send('GET', url(), people.internal[seat]);
        expect({ seat, status: res.statusCode }).toEqual({ seat, status: 200 });
        expect(res.json()).toMatchObject({
          account_manager: 'Ann Account',
          special_project_manager: null,
        });
      }
    });

    it('never sends the fields to anyone else with the same role', async () => {
      for (const seat of Object.keys(SEATS) as Seat[]) {
        const res = await s.send('GET', url(), people.ordinary[seat]);
        expect({ seat, status: res.statusCode }).toEqual({ seat, status: 200 });
        for (const field of FIELDS) expect(Object.keys(res.json())).not.toContain(field);
        expect(res.body).not.toContain('Ann Account');
      }
    });

    it('is 404 to members of other organizations, internal or not, and 401 anonymous', async () => {
      expect((await s.send('GET', url(), internalStranger)).statusCode).toBe(404);
      expect((await s.send('GET', url(), s.people.STRANGER)).statusCode).toBe(404);
      expect((await s.send('GET', url(), 'anonymous')).statusCode).toBe(401);
    });

    it('is not in the lists of workspaces, for anyone', async () => {
      for (const who of [people.internal.orgOwner, people.ordinary.orgOwner]) {
        const list = await s.send('GET', `/v1/organizations/${s.orgId}/clients/`, who);
        expect(list.statusCode).toBe(200);
        expect(list.body).not.toContain('Ann Account');
      }
    });
  });

  describe('PATCH /v1/clients/{id}/ with the managers', () => {
    it('lets an internal OWNER or ADMIN (of the organization or the workspace) change them', async () => {
      for (const seat of EDITORS) {
        const value = `Manager of ${seat}`;
        const res = await s.send('PATCH', url(), people.internal[seat], {
          account_manager: value,
          special_project_manager: `Projects ${seat}`,
        });
        expect({ seat, status: res.statusCode }).toEqual({ seat, status: 200 });
        expect(res.json()).toMatchObject({
          account_manager: value,
          special_project_manager: `Projects ${seat}`,
        });
        expect(await stored()).toEqual({
          account_manager: value,
          special_project_manager: `Projects ${seat}`,
        });
      }
    });

    it('refuses internal members whose role may not change the workspace (403)', async () => {
      const before = await stored();
      for (const seat of ['wsManager', 'wsStaff', 'wsClient'] as Seat[]) {
        const res = await s.send('PATCH', url(), people.internal[seat], { account_manager: 'X' });
        expect({ seat, status: res.statusCode }).toEqual({ seat, status: 403 });
      }
      expect(await stored()).toEqual(before);
    });

    it('refuses them to anyone else, even an OWNER, with 403 naming the fields', async () => {
      const before = await stored();
      for (const seat of EDITORS) {
        for (const payload of [
          { account_manager: 'Mallory' },
          { special_project_manager: null },
          { name: 'Harbour', account_manager: '' },
        ]) {
          const res = await s.send('PATCH', url(), people.ordinary[seat], payload);
          expect({ seat, payload, status: res.statusCode }).toEqual({ seat, payload, status: 403 });
          expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
          expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(
            FIELDS.filter((f) => f in payload),
          );
        }
      }
      expect(await stored()).toEqual(before);
    });

    it('leaves them alone when others change the rest, and answers without them', async () => {
      const before = await stored();
      const res = await s.send('PATCH', url(), people.ordinary.orgOwner, {
        dashboard_button_color: '#123456',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().dashboard_button_color).toBe('#123456');
      for (const field of FIELDS) expect(Object.keys(res.json())).not.toContain(field);
      expect(await stored()).toEqual(before);
    });

    it('clears a manager with null or an empty text, and trims', async () => {
      const who = people.internal.orgAdmin;
      const set = await s.send('PATCH', url(), who, {
        account_manager: '  Bo Boatswain  ',
        special_project_manager: 'pm@crew.example',
      });
      expect(set.json()).toMatchObject({
        account_manager: 'Bo Boatswain',
        special_project_manager: 'pm@crew.example',
      });
      const cleared = await s.send('PATCH', url(), who, {
        account_manager: '',
        special_project_manager: null,
      });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toMatchObject({
        account_manager: null,
        special_project_manager: null,
      });
      expect(await stored()).toEqual({ account_manager: null, special_project_manager: null });
    });

    it('answers 400 naming the field for a bad value', async () => {
      const who = people.internal.orgOwner;
      for (const [field, value] of [
        ['account_manager', 'x'.repeat(255)],
        ['account_manager', 'line\nbreak'],
        ['special_project_manager', 42],
        ['special_project_manager', { name: 'x' }],
      ] as const) {
        const res = await s.send('PATCH', url(), who, { [field]: value });
        expect(res.statusCode, `${field} ${String(value)}`).toBe(400);
        expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
        expect(res.json().details.map((d: { field: string }) => d.field)).toEqual([field]);
      }
    });

    it('is 404 to an internal member of another organization and 401 anonymous', async () => {
      const before = await stored();
      expect(
        (await s.send('PATCH', url(), internalStranger, { account_manager: 'X' })).statusCode,
      ).toBe(404);
      expect((await s.send('PATCH', url(), 'anonymous', { account_manager: 'X' })).statusCode).toBe(
        401,
      );
      expect(await stored()).toEqual(before);
    });
  });

  describe('PUT /v1/organizations/{orgId}/clients/{clientId}/', () => {
    it('follows the same rule', async () => {
      const put = `/v1/organizations/${s.orgId}/clients/${clientId}/`;
      const ok = await s.send('PUT', put, people.internal.orgOwner, {
        name: 'Harbour',
        account_manager: 'Put Person',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().account_manager).toBe('Put Person');
      const refused = await s.send('PUT', put, people.ordinary.orgOwner, {
        name: 'Harbour',
        account_manager: 'Nope',
      });
      expect(refused.statusCode).toBe(403);
      expect((await stored()).account_manager).toBe('Put Person');
    });
  });
});
