import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  activities,
  clientMembers,
  clients,
  customRoles,
  invitations,
  memberCustomRoles,
  memberPermissionOverrides,
  notifications,
  oauthAccounts,
  organizationMembers,
  organizations,
  sessions,
  uploads,
  users,
} from '../../db/schema/index.ts';
import type { FileStorage } from '../uploads/index.ts';
import { BATCH, jsonLines, keyset, type Cursor } from './batches.ts';
import type { ZipWriter } from './zip-writer.ts';

/**
 * A user's own data (kind USER): their profile, sign-in methods and sessions, memberships,
 * invitations, notifications, activities and uploaded files. Every query is scoped by the
 * user's id. Never written: the password hash, one-time codes, token hashes, session ids.
 */

export const USER_README = (brand: string, userEmail: string, at: Date) =>
  `Your ${brand} data
${'='.repeat(brand.length + 10)}

Everything ${brand} holds about the account ${userEmail}, as of ${at.toISOString()} (UTC).
Times are ISO 8601 in UTC; ids are UUIDs; money is in minor units (cents) with its currency.

profile.json        Your account: e-mail, names, phone, photo, settings, when it was made and
                    activated; your sign-in methods (password: yes or no; Google) and your
                    sessions (when, from which browser and address). No password or token.
memberships.json    The organizations and workspaces you belong to (or are invited to), your role
                    and status in each, your custom roles and permission overrides, and the
                    invitations sent to you.
notifications.json  Your notifications (the bell), seen or not.
activities.jsonl    What you did in the portal, one JSON document per line, oldest first.
uploads.json        The files you uploaded (photos, logos): type, size, when.
uploads/            The files themselves, named as in uploads.json.
`;

const stripSecrets = (meta: Record<string, unknown>) => {
  const { invitation_token: _token, ...rest } = meta;
  return rest;
};

async function profile(db: Db, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error('the user of the export is gone');
  const google = await db.select().from(oauthAccounts).where(eq(oauthAccounts.user_id, userId));
  const signIns = await db
    .select()
    .from(sessions)
    .where(eq(sessions.user_id, userId))
    .orderBy(asc(sessions.created_at));
  return {
    user: {
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      phone: user.phone,
      avatar: user.avatar,
      enabled: user.enabled,
      can_create_client: user.can_create_client,
      clients_view_option: user.clients_view_option,
      email_verified_at: user.email_verified_at,
      last_login_at: user.last_login_at,
      created_at: user.created_at,
      modified_at: user.modified_at,
    },
    sign_in_methods: {
      password: user.password_hash !== null,
      external: google.map((g) => ({
        provider: g.provider,
        subject: g.subject,
        email: g.email,
        linked_at: g.created_at,
      })),
    },
    sessions: signIns.map((s) => ({
      created_at: s.created_at,
      last_refreshed_at: s.last_refreshed_at,
      expires_at: s.expires_at,
      revoked_at: s.revoked_at,
      user_agent: s.user_agent,
      ip: s.ip,
    })),
  };
}

async function memberships(db: Db, userId: string) {
  const orgs = await db
    .select({ m: organizationMembers, name: organizations.name })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organization_id))
    .where(eq(organizationMembers.user_id, userId))
    .orderBy(asc(organizationMembers.created_at));
  const workspaces = await db
    .select({ m: clientMembers, client: clients.name, organization: organizations })
    .from(clientMembers)
    .innerJoin(clients, eq(clients.id, clientMembers.client_id))
    .innerJoin(organizations, eq(organizations.id, clients.organization_id))
    .where(eq(clientMembers.user_id, userId))
    .orderBy(asc(clientMembers.created_at));
  const invited = await db
    .select({ i: invitations, organization: organizations.name, client: clients.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organization_id))
    .leftJoin(clients, eq(clients.id, invitations.client_id))
    .where(eq(invitations.user_id, userId))
    .orderBy(asc(invitations.created_at));
  const roles = await db
    .select({ m: memberCustomRoles, name: customRoles.name })
    .from(memberCustomRoles)
    .innerJoin(customRoles, eq(customRoles.id, memberCustomRoles.role_id))
    .where(eq(memberCustomRoles.user_id, userId))
    .orderBy(asc(memberCustomRoles.client_id), asc(memberCustomRoles.priority));
  const overrides = await db
    .select()
    .from(memberPermissionOverrides)
    .where(eq(memberPermissionOverrides.user_id, userId))
    .orderBy(asc(memberPermissionOverrides.client_id), asc(memberPermissionOverrides.permission));
  return {
    organizations: orgs.map(({ m, name }) => ({
      organization: { id: m.organization_id, name },
      role: m.role,
      status: m.status,
      joined_at: m.created_at,
      last_active_at: m.last_active_at,
    })),
    workspaces: workspaces.map(({ m, client, organization }) => ({
      workspace: { id: m.client_id, name: client },
      organization: { id: organization.id, name: organization.name },
      role: m.role,
      status: m.status,
      joined_at: m.created_at,
      last_active_at: m.last_active_at,
    })),
    custom_roles: roles.map(({ m, name }) => ({
      workspace_id: m.client_id,
      role: { id: m.role_id, name },
      priority: m.priority,
    })),
    permission_overrides: overrides.map((o) => ({
      workspace_id: o.client_id,
      permission: o.permission,
      status: o.status,
    })),
    invitations: invited.map(({ i, organization, client }) => ({
      kind: i.kind,
      organization: { id: i.organization_id, name: organization },
      workspace: i.client_id ? { id: i.client_id, name: client } : null,
      role: i.role,
      status: i.status,
      sent_at: i.created_at,
      expires_at: i.expires_at,
      decided_at: i.decided_at,
    })),
  };
}

async function notificationsOf(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.recipient_id, userId))
    .orderBy(asc(notifications.created_at), asc(notifications.id));
  return rows.map((n) => ({
    id: n.id,
    type: n.type,
    status: n.status,
    is_seen: n.is_seen,
    extra_message: n.extra_message,
    // The invitation's token (the credential of its link) stays out.
    meta: stripSecrets(n.meta),
    organization_id: n.organization_id,
    workspace_id: n.client_id,
    created_at: n.created_at,
    deleted_at: n.deleted_at,
  }));
}

function activityBatch(db: Db, userId: string, after: Cursor | null) {
  return db
    .select({ at: sql<string>`${activities.created_at}::text`, id: activities.id, a: activities })
    .from(activities)
    .where(
      and(
        eq(activities.user_id, userId),
        after
          ? sql`(${activities.created_at}, ${activities.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(activities.created_at), asc(activities.id))
    .limit(BATCH);
}

/** Writes the USER archive's files (README.txt first) into `zip`. */
export async function writeUserData(
  db: Db,
  zip: ZipWriter,
  input: { userId: string; brand: string; at: Date; uploads: FileStorage },
): Promise<void> {
  const { userId } = input;
  const me = await profile(db, userId);
  await zip.text('README.txt', USER_README(input.brand, me.user.email, input.at));
  await zip.json('profile.json', me);
  await zip.json('memberships.json', await memberships(db, userId));
  await zip.json('notifications.json', await notificationsOf(db, userId));
  await zip.lines(
    'activities.jsonl',
    jsonLines(
      keyset((after) => activityBatch(db, userId, after)),
      ({ a }) => ({
        id: a.id,
        created_at: a.created_at,
        action: a.action,
        object_type: a.object_type,
        object_id: a.object_id,
        organization_id: a.organization_id,
        data: a.data,
        deleted_at: a.deleted_at,
      }),
    ),
  );

  const files = await db
    .select()
    .from(uploads)
    .where(eq(uploads.user_id, userId))
    .orderBy(asc(uploads.created_at), asc(uploads.id));
  const listed: object[] = [];
  for (const file of files) {
    const stored = await input.uploads.get(file.storage_key);
    listed.push({
      id: file.id,
      file: stored ? `uploads/${file.storage_key}` : null,
      url: `/uploads/${file.storage_key}`,
      content_type: file.content_type,
      size: file.size,
      uploaded_at: file.created_at,
    });
    if (stored) await zip.binary(`uploads/${file.storage_key}`, stored.body);
  }
  await zip.json('uploads.json', listed);
}
