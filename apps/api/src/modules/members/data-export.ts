import { asc, eq, inArray } from 'drizzle-orm';
import {
  clientMembers,
  clients,
  organizationMembers,
  organizations,
  users,
} from '../../db/schema/index.ts';
import { workspaceIdsOf, type Exporter } from '../../lib/data-export.ts';

/**
 * Memberships in the archives: a user's own (memberships.json) and an organization's members and
 * its workspaces' (members.json).
 */

const person = {
  id: users.id,
  email: users.email,
  first_name: users.first_name,
  last_name: users.last_name,
};

const membership = (
  m: typeof organizationMembers.$inferSelect | typeof clientMembers.$inferSelect,
) => ({
  role: m.role,
  status: m.status,
  invited_by: m.invited_by,
  joined_at: m.created_at,
  last_active_at: m.last_active_at,
});

export const membersExporter: Exporter = {
  tables: ['organizationMembers', 'clientMembers'],
  sections: {
    USER: {
      'memberships.json#organizations': {
        json: async ({ db, id }) => {
          const rows = await db
            .select({ m: organizationMembers, name: organizations.name })
            .from(organizationMembers)
            .innerJoin(organizations, eq(organizations.id, organizationMembers.organization_id))
            .where(eq(organizationMembers.user_id, id))
            .orderBy(asc(organizationMembers.created_at));
          return rows.map(({ m, name }) => ({
            organization: { id: m.organization_id, name },
            role: m.role,
            status: m.status,
            joined_at: m.created_at,
            last_active_at: m.last_active_at,
          }));
        },
      },
      'memberships.json#workspaces': {
        json: async ({ db, id }) => {
          const rows = await db
            .select({ m: clientMembers, client: clients.name, organization: organizations })
            .from(clientMembers)
            .innerJoin(clients, eq(clients.id, clientMembers.client_id))
            .innerJoin(organizations, eq(organizations.id, clients.organization_id))
            .where(eq(clientMembers.user_id, id))
            .orderBy(asc(clientMembers.created_at));
          return rows.map(({ m, client, organization }) => ({
            workspace: { id: m.client_id, name: client },
            organization: { id: organization.id, name: organization.name },
            role: m.role,
            status: m.status,
            joined_at: m.created_at,
            last_active_at: m.last_active_at,
          }));
        },
      },
    },
    ORGANIZATION: {
      'members.json#organization': {
        json: async ({ db, id }) => {
          const rows = await db
            .select({ m: organizationMembers, user: person })
            .from(organizationMembers)
            .innerJoin(users, eq(users.id, organizationMembers.user_id))
            .where(eq(organizationMembers.organization_id, id))
            .orderBy(asc(organizationMembers.created_at), asc(organizationMembers.id));
          return rows.map(({ m, user }) => ({ user, ...membership(m) }));
        },
      },
      'members.json#workspaces': {
        json: async ({ db, id }) => {
          const rows = await db
            .select({ m: clientMembers, user: person })
            .from(clientMembers)
            .innerJoin(users, eq(users.id, clientMembers.user_id))
            .where(inArray(clientMembers.client_id, workspaceIdsOf(db, id)))
            .orderBy(
              asc(clientMembers.client_id),
              asc(clientMembers.created_at),
              asc(clientMembers.id),
            );
          return rows.map(({ m, user }) => ({
            workspace_id: m.client_id,
            user,
            ...membership(m),
          }));
        },
      },
    },
  },
};
