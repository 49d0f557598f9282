import type { MembershipStatus, Role } from '@portolan/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { clientMembers, clients, invitations, organizationMembers } from '../../db/schema/index.ts';

/**
 * The memberships invitations offer, join and take back (the invitations module, in its
 * transaction, after its tenant and invitation locks). Shapes are this module's own, which an
 * invitation's target and row fit: invitations imports this module, never the reverse.
 */

/** Where a membership is: a workspace of the organization, or the organization itself. */
export interface MembershipPlace {
  organization: { id: string };
  client: { id: string } | null;
}

export interface Membership {
  id: string;
  role: Role;
  status: MembershipStatus;
}

/** The membership of this place: of the workspace, else the organization. */
function membershipTable(place: MembershipPlace) {
  return place.client
    ? { table: clientMembers, key: clientMembers.client_id, id: place.client.id }
    : {
        table: organizationMembers,
        key: organizationMembers.organization_id,
        id: place.organization.id,
      };
}

export async function findMembership(
  tx: Db | Tx,
  place: MembershipPlace,
  userId: string,
): Promise<Membership | undefined> {
  const m = membershipTable(place);
  const [row] = await tx
    .select({ id: m.table.id, role: m.table.role, status: m.table.status })
    .from(m.table)
    .where(and(eq(m.key, m.id), eq(m.table.user_id, userId)));
  return row;
}

/** Writes the membership as given, whether or not one was there. */
export async function putMembership(
  tx: Tx,
  place: MembershipPlace,
  userId: string,
  fields: { role: Role; status: MembershipStatus; invitedBy: string },
): Promise<Membership> {
  const values = { role: fields.role, status: fields.status, invited_by: fields.invitedBy };
  const [row] = place.client
    ? await tx
        .insert(clientMembers)
        .values({ client_id: place.client.id, user_id: userId, ...values })
        .onConflictDoUpdate({
          target: [clientMembers.client_id, clientMembers.user_id],
          set: { ...values, modified_at: sql`now()` },
        })
        .returning({ id: clientMembers.id, role: clientMembers.role, status: clientMembers.status })
    : await tx
        .insert(organizationMembers)
        .values({ organization_id: place.organization.id, user_id: userId, ...values })
        .onConflictDoUpdate({
          target: [organizationMembers.organization_id, organizationMembers.user_id],
          set: { ...values, modified_at: sql`now()` },
        })
        .returning({
          id: organizationMembers.id,
          role: organizationMembers.role,
          status: organizationMembers.status,
        });
  return row!;
}

/** The place's PENDING membership of this person joins (MEMBER, with the role); false if none. */
export async function joinPendingMembership(
  tx: Tx,
  place: MembershipPlace,
  userId: string,
  role: Role,
): Promise<boolean> {
  const m = membershipTable(place);
  const rows = await tx
    .update(m.table)
    .set({ status: 'MEMBER', role })
    .where(and(eq(m.key, m.id), eq(m.table.user_id, userId), eq(m.table.status, 'PENDING')))
    .returning({ id: m.table.id });
  return rows.length > 0;
}

/**
 * Someone invited or added to a workspace who is not in its organization becomes its external
 * (CLIENT) member with the given status; when they join (MEMBER), a PENDING external membership
 * joins too. Any other membership (an internal one, even pending) stays as it is.
 */
export async function joinAsExternal(
  tx: Tx,
  organizationId: string,
  userId: string,
  fields: { status: MembershipStatus; invitedBy: string | null },
): Promise<void> {
  await tx
    .insert(organizationMembers)
    .values({
      organization_id: organizationId,
      user_id: userId,
      role: 'CLIENT',
      status: fields.status,
      invited_by: fields.invitedBy,
    })
    .onConflictDoUpdate({
      target: [organizationMembers.organization_id, organizationMembers.user_id],
      set: { status: sql`excluded.status`, modified_at: sql`now()` },
      setWhere: sql`${organizationMembers.status} = 'PENDING' and ${organizationMembers.role} = 'CLIENT'`,
    });
}

/** Whether the person holds a membership (of any status, or only accepted) of a live workspace of the organization. */
const inAWorkspace = (organizationId: string, userId: string, status?: 'MEMBER') => sql`exists (
  select 1 from ${clientMembers} cm inner join ${clients} c on c.id = cm.client_id
  where c.organization_id = ${organizationId} and c.deleted_at is null and cm.user_id = ${userId}
    ${status ? sql`and cm.status = ${status}` : sql``})`;

/**
 * A declined invitation takes back the pending membership it offered, so a later invitation
 * starts afresh. A workspace invitation also takes back the pending external organization
 * membership it made, unless the person is still in (or invited to) another of its workspaces or
 * invited to the organization itself. A declined organization invitation leaves someone who is in
 * a workspace of it as its external member (accepted when a workspace membership is).
 */
export async function withdrawPendingMemberships(
  tx: Tx,
  invitation: { organization_id: string; client_id: string | null; user_id: string },
): Promise<void> {
  const { organization_id: org, user_id: userId } = invitation;
  const pendingHere = and(
    eq(organizationMembers.organization_id, org),
    eq(organizationMembers.user_id, userId),
    eq(organizationMembers.status, 'PENDING'),
  );
  if (invitation.client_id) {
    await tx
      .delete(clientMembers)
      .where(
        and(
          eq(clientMembers.client_id, invitation.client_id),
          eq(clientMembers.user_id, userId),
          eq(clientMembers.status, 'PENDING'),
        ),
      );
    await tx.delete(organizationMembers).where(
      and(
        pendingHere,
        eq(organizationMembers.role, 'CLIENT'),
        sql`not ${inAWorkspace(org, userId)}`,
        sql`not exists (select 1 from ${invitations} i where i.kind = 'organization'
          and i.organization_id = ${org} and i.user_id = ${userId} and i.status = 'PENDING')`,
      ),
    );
    return;
  }
  await tx
    .update(organizationMembers)
    .set({
      role: 'CLIENT',
      status: sql`case when ${inAWorkspace(org, userId, 'MEMBER')} then 'MEMBER' else 'PENDING' end`,
    })
    .where(and(pendingHere, inAWorkspace(org, userId)));
  await tx
    .delete(organizationMembers)
    .where(and(pendingHere, sql`not ${inAWorkspace(org, userId)}`));
}
