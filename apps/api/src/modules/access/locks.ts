import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { clients, organizations } from '../../db/schema/index.ts';

/** The tenant a write changes: an organization, and one of its workspaces or none. */
export interface TenantLock {
  organizationId: string;
  clientId?: string | null | undefined;
}

/**
 * The one lock order of tenant writes (ARCHITECTURE.md "Lock order"): the organization's row,
 * then the workspace's, then whatever else the write locks (invitations, rules, memberships,
 * subscriptions, the billing account, …). Every transaction that changes an organization's or a
 * workspace's data calls this first, so two writes of one organization wait for each other
 * instead of each holding what the other needs (PostgreSQL answers that with "deadlock
 * detected").
 *
 * FOR NO KEY UPDATE, in two statements (a single statement would lock in no promised order): it
 * serialises tenant writes with each other and with updates of those rows, but not with the
 * foreign-key checks of rows that merely reference them (they take KEY SHARE), so a transaction
 * outside the order (an activity reported, a gateway event) never waits on it.
 *
 * False when the organization is gone, or the workspace is gone or not of that organization.
 */
export async function lockTenant(tx: Tx, tenant: TenantLock): Promise<boolean> {
  const [organization] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.id, tenant.organizationId), isNull(organizations.deleted_at)))
    .for('no key update');
  if (!organization) return false;
  if (!tenant.clientId) return true;
  const [client] = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(
      and(
        eq(clients.id, tenant.clientId),
        eq(clients.organization_id, tenant.organizationId),
        isNull(clients.deleted_at),
      ),
    )
    .for('no key update');
  return client !== undefined;
}
