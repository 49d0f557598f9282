import {
  rolesWith,
  type InvitationKind,
  type MembershipStatus,
  type Role,
} from '@portolan/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  clientMembers,
  clients,
  invitations,
  organizationMembers,
  organizations,
  users,
} from '../../db/schema/index.ts';
import type { TenantLock } from '../access/index.ts';
import { findUserByEmail, type UserRow } from '../users/index.ts';

export type InvitationRow = typeof invitations.$inferSelect;
type Conn = Db | Tx;

/** What an invitation is to: an organization, or a workspace of it. */
export interface Target {
  kind: InvitationKind;
  organization: { id: string; name: string };
  client: { id: string; name: string } | null;
}

export interface Membership {
  id: string;
  role: Role;
  status: MembershipStatus;
}

/**
 * The live account of this e-mail (any case), or a new one made from `fields`. Two requests
 * making the same account at once meet at the unique index: the loser's insert does nothing and
 * it reads the winner's row.
 */
export async function findOrCreateUser(
  tx: Tx,
  email: string,
  fields: Pick<UserRow, 'first_name' | 'last_name' | 'password_hash' | 'email_verified_at'>,
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByEmail(tx, email);
  if (existing) return { user: existing, created: false };
  // Invited people join an organization; creating organizations is for those who register.
  const [made] = await tx
    .insert(users)
    .values({ email, ...fields, can_create_client: false })
    .onConflictDoNothing()
    .returning();
  if (made) return { user: made, created: true };
  const raced = await findUserByEmail(tx, email);
  if (!raced) throw new Error('an account insert conflicted but no account has the e-mail');
  return { user: raced, created: false };
}

// ---- memberships ------------------------------------------------------------------------------

/** The membership an invitation of this target offers: of the workspace, else the organization. */
function membershipTable(target: Target) {
  return target.client
    ? { table: clientMembers, key: clientMembers.client_id, id: target.client.id }
    : {
        table: organizationMembers,
        key: organizationMembers.organization_id,
        id: target.organization.id,
      };
}

export async function findMembership(
  tx: Conn,
  target: Target,
  userId: string,
): Promise<Membership | undefined> {
  const m = membershipTable(target);
  const [row] = await tx
    .select({ id: m.table.id, role: m.table.role, status: m.table.status })
    .from(m.table)
    .where(and(eq(m.key, m.id), eq(m.table.user_id, userId)));
  return row;
}

/** Writes the membership as given, whether or not one was there. */
export async function putMembership(
  tx: Tx,
  target: Target,
  userId: string,
  fields: { role: Role; status: MembershipStatus; invitedBy: string },
): Promise<Membership> {
  const values = { role: fields.role, status: fields.status, invited_by: fields.invitedBy };
  const [row] = target.client
    ? await tx
        .insert(clientMembers)
        .values({ client_id: target.client.id, user_id: userId, ...values })
        .onConflictDoUpdate({
          target: [clientMembers.client_id, clientMembers.user_id],
          set: { ...values, modified_at: sql`now()` },
        })
        .returning({ id: clientMembers.id, role: clientMembers.role, status: clientMembers.status })
    : await tx
        .insert(organizationMembers)
        .values({ organization_id: target.organization.id, user_id: userId, ...values })
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

/** The target's PENDING membership of this person joins (MEMBER, with the role); false if none. */
export async function joinPendingMembership(
  tx: Tx,
  target: Target,
  userId: string,
  role: Role,
): Promise<boolean> {
  const m = membershipTable(target);
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

/**
 * An OWNER or ADMIN of an organization is an OWNER member of each of its active workspaces
 * (REFERENCE "Who may do what"): made so in one statement when they join with such a role;
 * memberships already there stay as they are.
 */
export async function grantIfOrganizationAdmin(
  tx: Tx,
  target: Target,
  userId: string,
  role: Role,
): Promise<void> {
  const orgAdmins: readonly Role[] = rolesWith('organization.clients.manage');
  if (target.client || !orgAdmins.includes(role)) return;
  await tx.execute(sql`
    insert into ${clientMembers} (client_id, user_id, role, status)
    select ${clients.id}, ${userId}::uuid, 'OWNER', 'MEMBER' from ${clients}
    where ${clients.organization_id} = ${target.organization.id} and ${clients.active}
      and ${clients.deleted_at} is null
    on conflict do nothing`);
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
export async function withdrawPendingMemberships(tx: Tx, invitation: InvitationRow): Promise<void> {
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
