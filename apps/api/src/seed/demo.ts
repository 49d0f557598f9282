import { adjustBalance } from '../modules/billing/index.ts';
import { grantPlatformAdmin, insertReleaseNote } from '../modules/release-notes/index.ts';
import { sql } from 'drizzle-orm';
import type { AppProfile } from '@portolan/contract';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import {
  addOrganizationMember,
  createClient,
  createInvoice,
  createOrganization,
  createPaymentMethod,
  createSubscription,
  createUser,
} from './factories.ts';

export const DEMO_OWNER = {
  email: 'owner@portolan.demo',
  password: 'Portolan demo owner 2026',
  first_name: 'Olivia',
  last_name: 'Owner',
};
export const DEMO_STAFF = {
  email: 'staff@portolan.demo',
  password: 'Portolan demo staff 2026',
  first_name: 'Sam',
  last_name: 'Staff',
};
export const DEMO_ORGANIZATION = 'Demo Shipping Co.';
export const DEMO_WORKSPACES = ['North Atlantic Transit', 'Pacific Freight Lanes'];
/** Created by the STAFF member, so it waits for the owner's approval. */
export const DEMO_PENDING_WORKSPACE = 'Gulf Coast Pilot';

/**
 * Demo data: an active owner, an organization subscribed to PROFESSIONAL (a sandbox Visa ending
 * 4242 as its card, the first invoice paid) and two workspaces with the profile's modules enabled; a STAFF member of the organization and the workspace they created, waiting for the
 * owner's approval. Runs in one transaction and does nothing when the demo owner already exists.
 */
export async function seedDemo(db: Db, appProfile: AppProfile): Promise<{ created: boolean }> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${DEMO_OWNER.email}`)
      .limit(1);
    if (existing) return { created: false };
    const owner = await createUser(tx, { ...DEMO_OWNER, can_create_client: true });
    // Subscribed to PROFESSIONAL and paid with the sandbox's test Visa, as a checkout leaves it.
    const org = await createOrganization(tx, {
      ownerId: owner.id,
      name: DEMO_ORGANIZATION,
      plan: null,
    });
    const card = await createPaymentMethod(tx, { organizationId: org.id });
    const subscription = await createSubscription(tx, {
      organizationId: org.id,
      plan: 'PROFESSIONAL',
      appProfile,
      subscriberId: owner.id,
      defaultPaymentMethodId: card.id,
    });
    await createInvoice(tx, {
      organizationId: org.id,
      subscriptionId: subscription.id,
      amount: subscription.amount,
      description: 'Professional plan, monthly',
    });
    // A balance to draw on, as the platform's welcome credit leaves it.
    await adjustBalance(tx, org.id, 2500, 'Welcome credit');
    for (const name of DEMO_WORKSPACES) {
      await createClient(tx, { organizationId: org.id, ownerId: owner.id, name, appProfile });
    }
    const staff = await createUser(tx, { ...DEMO_STAFF, can_create_client: false });
    await addOrganizationMember(tx, { organizationId: org.id, userId: staff.id, role: 'STAFF' });
    // As the workspaces service leaves a STAFF creation: inactive, modules off, its creator owner.
    await createClient(tx, {
      organizationId: org.id,
      ownerId: staff.id,
      name: DEMO_PENDING_WORKSPACE,
      appProfile,
      active: false,
      enabledModules: [],
    });
    // The owner runs the platform too: a platform administrator, who wrote the release notes.
    await grantPlatformAdmin(tx, DEMO_OWNER.email);
    for (const note of DEMO_RELEASE_NOTES) await insertReleaseNote(tx, note(), owner.id);
    return { created: true };
  });
}

const dayOffset = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** The release notes of the demo (newest first), dated from the day the seed runs. */
export const DEMO_RELEASE_NOTES = [
  () => ({
    version: 'v1.7.4',
    release_date: dayOffset(2),
    release_note:
      '<h3>Transit</h3><ul><li>Shipment lists of workspaces with more than 10,000 shipments open <strong>twice as fast</strong>.</li>' +
      '<li>Customs declarations can be downloaded as a PDF from the shipment page.</li>' +
      '<li>Estimated arrival times now follow the carrier&#39;s latest vessel schedule.</li></ul>' +
      '<h3>Fixes</h3><ul><li>Tracking events from ocean carriers no longer show twice after a port change.</li></ul>' +
      '<p>Questions? Write to <a href="mailto:support@example.com">support@example.com</a>.</p>',
  }),
  () => ({
    version: 'v1.7.3',
    release_date: dayOffset(23),
    release_note:
      '<p>Release notes now open from the header: a dot on the toggle tells you when there is something new.</p>' +
      '<ul><li>Container numbers are checked against the <em>ISO 6346</em> check digit as you type.</li>' +
      '<li>Bills of lading accept up to 999 line items.</li></ul>',
  }),
];
