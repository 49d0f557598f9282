import { asc, eq } from 'drizzle-orm';
import { clients, invitations, organizations, users } from '../../db/schema/index.ts';
import type { Exporter } from '../../lib/data-export.ts';

/** Invitations in the archives: those sent to the user, those the organization sent. Never a token. */
export const invitationsExporter: Exporter = {
  tables: ['invitations'],
  sections: {
    USER: {
      'memberships.json#invitations': {
        json: async ({ db, id }) => {
          const rows = await db
            .select({ i: invitations, organization: organizations.name, client: clients.name })
            .from(invitations)
            .innerJoin(organizations, eq(organizations.id, invitations.organization_id))
            .leftJoin(clients, eq(clients.id, invitations.client_id))
            .where(eq(invitations.user_id, id))
            .orderBy(asc(invitations.created_at));
          return rows.map(({ i, organization, client }) => ({
            kind: i.kind,
            organization: { id: i.organization_id, name: organization },
            workspace: i.client_id ? { id: i.client_id, name: client } : null,
            role: i.role,
            status: i.status,
            sent_at: i.created_at,
            expires_at: i.expires_at,
            decided_at: i.decided_at,
          }));
        },
      },
    },
    ORGANIZATION: {
      'members.json#invitations': {
        json: async ({ db, id }) => {
          const rows = await db
            .select({ i: invitations, email: users.email })
            .from(invitations)
            .innerJoin(users, eq(users.id, invitations.user_id))
            .where(eq(invitations.organization_id, id))
            .orderBy(asc(invitations.created_at), asc(invitations.id));
          return rows.map(({ i, email }) => ({
            id: i.id,
            kind: i.kind,
            workspace_id: i.client_id,
            user: { id: i.user_id, email },
            role: i.role,
            status: i.status,
            invited_by: i.invited_by,
            sent_at: i.created_at,
            expires_at: i.expires_at,
            decided_at: i.decided_at,
          }));
        },
      },
    },
  },
};
