import { APP_PROFILES, type AppProfile } from '@portolan/contract';
import type { Db } from '../client.ts';
import {
  clientMembers,
  clientModules,
  clients,
  organizationMembers,
  organizations,
  users,
} from '../schema/index.ts';
import { hashPassword } from '../../modules/auth/passwords.ts';
import { findUserByEmail } from '../../modules/auth/users-repo.ts';

export const DEMO_OWNER = {
  email: 'owner@portolan.demo',
  password: 'Portolan demo owner 2026',
  first_name: 'Olivia',
  last_name: 'Owner',
};
export const DEMO_ORGANIZATION = 'Demo Shipping Co.';
export const DEMO_WORKSPACES = ['North Atlantic Transit', 'Pacific Freight Lanes'];

/**
 * Demo data: an active owner, an organization and two workspaces with the profile's modules
 * enabled. Runs in one transaction and does nothing when the demo owner already exists.
 */
export async function seedDemo(db: Db, appProfile: AppProfile): Promise<{ created: boolean }> {
  const passwordHash = await hashPassword(DEMO_OWNER.password);
  return db.transaction(async (tx) => {
    if (await findUserByEmail(tx, DEMO_OWNER.email)) return { created: false };
    const now = new Date();
    const [owner] = await tx
      .insert(users)
      .values({
        email: DEMO_OWNER.email,
        password_hash: passwordHash,
        first_name: DEMO_OWNER.first_name,
        last_name: DEMO_OWNER.last_name,
        can_create_client: true,
        email_verified_at: now,
      })
      .returning();
    const [org] = await tx
      .insert(organizations)
      .values({ name: DEMO_ORGANIZATION, owner_id: owner!.id })
      .returning();
    await tx
      .insert(organizationMembers)
      .values({ organization_id: org!.id, user_id: owner!.id, role: 'OWNER' });
    for (const name of DEMO_WORKSPACES) {
      const [client] = await tx
        .insert(clients)
        .values({ organization_id: org!.id, name, owner_id: owner!.id, active: true })
        .returning();
      await tx.insert(clientModules).values(
        APP_PROFILES[appProfile].map((module) => ({
          client_id: client!.id,
          module,
          enabled: true,
        })),
      );
      await tx
        .insert(clientMembers)
        .values({ client_id: client!.id, user_id: owner!.id, role: 'OWNER' });
    }
    return { created: true };
  });
}
