import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import type { Person, TenantScene } from '../../../test/support/tenants.ts';
import { activities, shareLinks } from '../../db/schema/index.ts';
import { createClient } from '../../seed/factories.ts';
import { shareLinkScene, type Who } from './test-scene.ts';

/**
 * Revoking a share link: its creator whatever their role, the workspace's OWNERs and ADMINs for
 * anyone's; everyone else does not see the link (404); a second revocation changes nothing.
 */
describe('share links of a workspace: revoke', () => {
  let t: TestApp;
  let s: TenantScene;
  let clientId: string;
  let who: Who;

  beforeAll(async () => {
    t = await createTestApp();
    ({ s, clientId, who } = await shareLinkScene(t));
  });
  afterAll(() => t.close());

  const create = (person: Person) =>
    s.send('POST', `/v1/clients/${clientId}/share-links/`, person, { module: 'TR' });

  describe('DELETE …/share-links/{linkId}/', () => {
    const make = async (person: Person) => (await create(person)).json() as { id: string };
    const revoke = (person: Person | 'anonymous', id: string, client = clientId) =>
      s.send('DELETE', `/v1/clients/${client}/share-links/${id}/`, person);
    const revokedAt = async (id: string) =>
      (await t.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, id)))[0]!.revoked_at;

    it('lets the creator revoke their own link, whatever their role', async () => {
      for (const role of ['MANAGER', 'STAFF', 'CLIENT'] as const) {
        const link = await make(who[role]);
        const res = await revoke(who[role], link.id);
        expect(res.statusCode, role).toBe(204);
        expect(await revokedAt(link.id)).toEqual(t.clock.now());
      }
    });

    it('lets the workspace’s OWNER and ADMIN revoke anyone’s link', async () => {
      for (const role of ['OWNER', 'ADMIN'] as const) {
        const link = await make(who.CLIENT);
        expect((await revoke(who[role], link.id)).statusCode, role).toBe(204);
        expect(await revokedAt(link.id)).not.toBeNull();
      }
    });

    it('answers 404 to other members (they do not see the link), outsiders and strangers; 401 anonymous', async () => {
      const link = await make(who.OWNER);
      for (const role of ['MANAGER', 'STAFF', 'CLIENT', 'OUTSIDER', 'STRANGER'] as const) {
        const res = await revoke(who[role], link.id);
        expect(res.statusCode, role).toBe(404);
        expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
      }
      expect((await revoke('anonymous', link.id)).statusCode).toBe(401);
      expect(await revokedAt(link.id)).toBeNull();
      // Another workspace's id in the path: not there either.
      const other = await createClient(t.ctx.db, {
        organizationId: s.orgId,
        ownerId: who.OWNER.id,
      });
      expect((await revoke(who.OWNER, link.id, other.id)).statusCode).toBe(404);
      expect(await revokedAt(link.id)).toBeNull();
    });

    it('answers 204 again to a second revocation, keeping the first one’s time and activity', async () => {
      const link = await make(who.STAFF);
      expect((await revoke(who.STAFF, link.id)).statusCode).toBe(204);
      const first = await revokedAt(link.id);
      t.clock.advance(5000);
      expect((await revoke(who.STAFF, link.id)).statusCode).toBe(204);
      expect((await revoke(who.OWNER, link.id)).statusCode).toBe(204);
      expect(await revokedAt(link.id)).toEqual(first);
      const recorded = (
        await t.ctx.db.select().from(activities).where(eq(activities.action, 'REVOKE_SHARE_LINK'))
      ).filter((a) => a.data.share_link_id === link.id);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({ user_id: who.STAFF.id, organization_id: s.orgId });
    });

    it('answers 400 to ids that are not ids, 404 to an unknown one', async () => {
      expect((await revoke(who.OWNER, 'nope')).statusCode).toBe(400);
      expect((await revoke(who.OWNER, '0d000000-0000-4000-8000-0000000000ff')).statusCode).toBe(
        404,
      );
    });
  });
});
