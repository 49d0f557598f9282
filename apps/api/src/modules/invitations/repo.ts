import { rolesWith, type InvitationKind, type Role } from '@portolan/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { clients, invitations, organizations, users } from '../../db/schema/index.ts';
import type { TenantLock } from '../access/index.ts';
import { grantActiveWorkspaces } from '../members/index.ts';

export type InvitationRow = typeof invitations.$inferSelect;

/** What an invitation is to: an organization, or a workspace of it. */
export interface Target {
  kind: InvitationKind;
  organization: { id: string; name: string };
  client: { id: string; name: string } | null;
}

/** Where an invitation (or the membership it offers) is, as its events say it. */
export const placeOf = (invitation: { client_id: string | null }) =>
  invitation.client_id
    ? ({ scope: 'workspace', client_id: invitation.client_id } as const)
    : ({ scope: 'organization', client_id: null } as const);

// ---- memberships ------------------------------------------------------------------------------

/**
 * An OWNER or ADMIN of an organization is an OWNER member of each of its active workspaces
 * (REFERENCE "Who may do what"): made so in one statement (the members module's) when they join
 * with such a role; memberships already there stay as they are.
 */
export async function grantIfOrganizationAdmin(
  tx: Tx,
  target: Target,
  userId: string,
  role: Role,
): Promise<void> {
  const orgAdmins: readonly Role[] = rolesWith('organization.clients.manage');
  if (target.client || !orgAdmins.includes(role)) return;
  await grantActiveWorkspaces(tx, target.organization.id, userId);
}

// ---- invitations ------------------------------------------------------------------------------

/** The target's PENDING invitation of this person, locked for the rest of the transaction. */
export async function lockPendingInvitation(
  tx: Tx,
  target: Target,
  userId: string,
): Promise<InvitationRow | undefined> {
  const [row] = await tx
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.kind, target.kind),
        target.client
          ? eq(invitations.client_id, target.client.id)
          : eq(invitations.organization_id, target.organization.id),
        eq(invitations.user_id, userId),
        eq(invitations.status, 'PENDING'),
      ),
    )
    .for('update');
  return row;
}

export async function insertInvitation(
  tx: Tx,
  target: Target,
  fields: { userId: string; role: Role; tokenHash: string; invitedBy: string; expiresAt: Date },
): Promise<InvitationRow> {
  const [row] = await tx
    .insert(invitations)
    .values({
      kind: target.kind,
      organization_id: target.organization.id,
      client_id: target.client?.id ?? null,
      user_id: fields.userId,
      role: fields.role,
      token_hash: fields.tokenHash,
      invited_by: fields.invitedBy,
      expires_at: fields.expiresAt,
    })
    .returning();
  return row!;
}

/** Records the decision on a PENDING invitation (accepted, declined, or revoked). */
export async function decideInvitation(
  tx: Tx,
  id: string,
  status: 'ACCEPTED' | 'DECLINED' | 'REVOKED',
  at: Date,
): Promise<void> {
  await tx
    .update(invitations)
    .set({ status, decided_at: at })
    .where(and(eq(invitations.id, id), eq(invitations.status, 'PENDING')));
}

/** Where an invitation is to (it never moves): the tenant whose locks come before its own. */
export async function tenantOfInvitation(tx: Tx, id: string): Promise<TenantLock | undefined> {
  const [row] = await tx
    .select({ organizationId: invitations.organization_id, clientId: invitations.client_id })
    .from(invitations)
    .where(eq(invitations.id, id));
  return row;
}

/** An invitation, locked for the rest of the transaction. */
export async function lockInvitation(tx: Tx, id: string): Promise<InvitationRow | undefined> {
  const [row] = await tx.select().from(invitations).where(eq(invitations.id, id)).for('update');
  return row;
}

/**
 * The invitation a token's hash names, with its invitee and what it is to (only while the
 * organization and the workspace live), in one query.
 */
export async function findInvitationByHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      invitation: invitations,
      user: users,
      organization: { id: organizations.id, name: organizations.name },
      client: { id: clients.id, name: clients.name },
    })
    .from(invitations)
    .innerJoin(users, and(eq(users.id, invitations.user_id), isNull(users.deleted_at)))
    .innerJoin(
      organizations,
      and(eq(organizations.id, invitations.organization_id), isNull(organizations.deleted_at)),
    )
    .leftJoin(clients, and(eq(clients.id, invitations.client_id), isNull(clients.deleted_at)))
    .where(eq(invitations.token_hash, tokenHash))
    .limit(1);
  if (!row || (row.invitation.client_id !== null && row.client === null)) return undefined;
  const target: Target = {
    kind: row.invitation.kind,
    organization: row.organization,
    client: row.client,
  };
  return { invitation: row.invitation, user: row.user, target };
}

/**
 * Revokes a person's PENDING invitations to an organization and its workspaces, or to some of its
 * workspaces (`clientIds`), in one statement (the members module, removing them). Answers the
 * revoked invitations' ids, whose notifications the caller settles.
 */
export async function revokePendingInvitations(
  tx: Tx,
  scope: { organizationId: string; clientIds?: readonly string[] },
  userId: string,
  at: Date,
): Promise<string[]> {
  const rows = await tx
    .update(invitations)
    .set({ status: 'REVOKED', decided_at: at, modified_at: at })
    .where(
      and(
        eq(invitations.user_id, userId),
        eq(invitations.status, 'PENDING'),
        eq(invitations.organization_id, scope.organizationId),
        scope.clientIds ? inArray(invitations.client_id, [...scope.clientIds]) : undefined,
      ),
    )
    .returning({ id: invitations.id });
  return rows.map((r) => r.id);
}
