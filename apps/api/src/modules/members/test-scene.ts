// What the members tests start from: the shared tenant scene, and rows of the tables a member
// change touches (invitations and their notifications, custom roles, overrides), written directly.
import crypto from 'node:crypto';
import type { InvitationKind, Role } from '@portolan/contract';
import { and, eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/support/app.ts';
import type { Db } from '../../db/client.ts';
import {
  activities,
  clientMembers,
  customRoles,
  invitations,
  memberCustomRoles,
  memberPermissionOverrides,
  notifications,
  organizationMembers,
} from '../../db/schema/index.ts';

export const orgMembership = async (db: Db, organizationId: string, userId: string) =>
  (
    await db
      .select()
      .from(organizationMembers)
      .where(
        and(
          eq(organizationMembers.organization_id, organizationId),
          eq(organizationMembers.user_id, userId),
        ),
      )
  )[0];

export const workspaceMembership = async (db: Db, clientId: string, userId: string) =>
  (
    await db
      .select()
      .from(clientMembers)
      .where(and(eq(clientMembers.client_id, clientId), eq(clientMembers.user_id, userId)))
  )[0];

/** The organization's activities of one action, oldest first. */
export const activitiesOf = (db: Db, organizationId: string, action: string) =>
  db
    .select()
    .from(activities)
    .where(and(eq(activities.organization_id, organizationId), eq(activities.action, action)))
    .orderBy(activities.created_at);

/** A PENDING invitation and the OPEN notification that offers it, as inviting leaves them. */
export async function pendingInvitation(
  db: Db,
  fields: {
    kind: InvitationKind;
    organizationId: string;
    clientId?: string;
    userId: string;
    role: Role;
    invitedBy: string;
  },
) {
  const [invitation] = await db
    .insert(invitations)
    .values({
      kind: fields.kind,
      organization_id: fields.organizationId,
      client_id: fields.clientId ?? null,
      user_id: fields.userId,
      role: fields.role,
      token_hash: crypto.randomBytes(32).toString('hex'),
      invited_by: fields.invitedBy,
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .returning();
  const [notification] = await db
    .insert(notifications)
    .values({
      type: 'INVITATION',
      recipient_id: fields.userId,
      author_id: fields.invitedBy,
      organization_id: fields.organizationId,
      client_id: fields.clientId ?? null,
      invitation_id: invitation!.id,
      meta: { invitation_token: 'token', type: fields.kind },
    })
    .returning();
  return { invitation: invitation!, notification: notification! };
}

export const invitationRow = async (db: Db, id: string) =>
  (await db.select().from(invitations).where(eq(invitations.id, id)))[0]!;
export const notificationRow = async (db: Db, id: string) =>
  (await db.select().from(notifications).where(eq(notifications.id, id)))[0]!;

/** Gives a member a custom role and an override in a workspace (what permissions would). */
export async function givePermissions(
  db: Db,
  fields: { organizationId: string; clientId: string; userId: string },
) {
  const [role] = await db
    .insert(customRoles)
    .values({ organization_id: fields.organizationId, name: `Role ${crypto.randomUUID()}` })
    .returning();
  await db.insert(memberCustomRoles).values({
    client_id: fields.clientId,
    user_id: fields.userId,
    role_id: role!.id,
    priority: 1,
  });
  await db.insert(memberPermissionOverrides).values({
    client_id: fields.clientId,
    user_id: fields.userId,
    permission: 'TR.history.view',
    status: 'ALLOW',
  });
}

/** How many custom roles and overrides the member holds in the workspace. */
export async function permissionRows(db: Db, clientId: string, userId: string) {
  const roles = await db
    .select()
    .from(memberCustomRoles)
    .where(and(eq(memberCustomRoles.client_id, clientId), eq(memberCustomRoles.user_id, userId)));
  const overrides = await db
    .select()
    .from(memberPermissionOverrides)
    .where(
      and(
        eq(memberPermissionOverrides.client_id, clientId),
        eq(memberPermissionOverrides.user_id, userId),
      ),
    );
  return roles.length + overrides.length;
}

/** Every row of the tables a member change writes, to show that a refused one wrote nothing. */
export async function snapshot(t: TestApp) {
  const db = t.ctx.db;
  return {
    organizationMembers: await db.select().from(organizationMembers),
    clientMembers: await db.select().from(clientMembers),
    invitations: await db.select().from(invitations),
    notifications: await db.select().from(notifications),
    memberCustomRoles: await db.select().from(memberCustomRoles),
    memberPermissionOverrides: await db.select().from(memberPermissionOverrides),
    activities: await db.select().from(activities),
  };
}
