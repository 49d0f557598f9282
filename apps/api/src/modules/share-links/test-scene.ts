import type { TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

/** Who a share-link test acts as. */
export type Who = Record<
  'OWNER' | 'ADMIN' | 'MANAGER' | 'STAFF' | 'CLIENT' | 'OUTSIDER' | 'STRANGER',
  Person
>;

/**
 * The workspace Harbour (2D Transit on) and everyone around it: its OWNER, the organization's
 * ADMIN (no membership of the workspace of their own), the workspace's MANAGER, STAFF and CLIENT,
 * an organization STAFF outside the workspace, and a stranger (the OWNER of another organization).
 */
export async function shareLinkScene(
  t: TestApp,
): Promise<{ s: TenantScene; clientId: string; who: Who }> {
  const s = await createTenantScene(t);
  const p = s.people;
  const client = await createClient(t.ctx.db, {
    organizationId: s.orgId,
    ownerId: p.OWNER.id,
    name: 'Harbour',
  });
  const clientId = client.id;
  const manager = await s.member('STAFF');
  await addClientMember(t.ctx.db, { clientId, userId: manager.id, role: 'MANAGER' });
  await addClientMember(t.ctx.db, { clientId, userId: p.STAFF.id, role: 'STAFF' });
  await addClientMember(t.ctx.db, { clientId, userId: p.CLIENT.id, role: 'CLIENT' });
  const outsider = await s.member('STAFF');
  const who: Who = {
    OWNER: p.OWNER,
    ADMIN: p.ADMIN,
    MANAGER: manager,
    STAFF: p.STAFF,
    CLIENT: p.CLIENT,
    OUTSIDER: outsider,
    STRANGER: p.STRANGER,
  };
  return { s, clientId, who };
}
