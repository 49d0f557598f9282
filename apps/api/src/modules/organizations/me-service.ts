import {
  can,
  effectiveWorkspaceRole,
  ROLE_NAMES,
  type AllSettingsEntry,
  type AllSettingsQuery,
  type Client,
  type MyClient,
  type MyOrganizationEntry,
  type Paginated,
  type RoleRef,
  type UserClientSettings,
  type WorkspaceRole,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { type Actor, type AuthState } from '../access/index.ts';
import { offsetOf, pageOf } from '../../lib/pagination.ts';
import { countMyOrganizations, myOrganizationPageIds, pageMyOrganizations } from './repo.ts';
import { toOrganizationDto } from './service.ts';
import {
  countVisibleClients,
  listVisibleClients,
  listVisibleClientsWithTimes,
  loadMemberSettings,
  type VisibleClientRow,
} from './workspaces-repo.ts';

/**
 * The caller's own lists: their organizations with the workspaces they see, and their workspaces
 * flat. Each is a fixed number of statements whatever the page size (see workspaces-repo.ts).
 */

const roleRef = (role: WorkspaceRole | null): RoleRef | null =>
  role && { key: role, name: ROLE_NAMES[role] };

/** The role that counts in a listed workspace: an organization OWNER/ADMIN's, or their own. */
function roleIn(row: VisibleClientRow): RoleRef | null {
  const orgRole = row.orgStatus === 'MEMBER' ? row.orgRole : null;
  return roleRef(effectiveWorkspaceRole({ orgRole, workspaceRole: row.workspaceRole }));
}

function toMyClient(row: VisibleClientRow): MyClient {
  return {
    id: row.id,
    name: row.name,
    logo: row.logo,
    active: row.active,
    role: roleIn(row),
    modules: row.modules,
    dashboard_button_color: row.dashboardButtonColor,
  };
}

function toClient(row: VisibleClientRow & { createdAt: Date }): Client {
  return {
    ...toMyClient(row),
    organization: row.organizationId,
    created: row.createdAt.toISOString(),
  };
}

/**
 * GET /v1/me/organizations/and/clients/: a page of the caller's organizations (by name,
 * case-insensitively), each with the workspaces the caller sees in it. Four statements, run at
 * once (the workspaces select the page's organizations by a subquery, not by its answer): the
 * count, the page, the workspaces of the page and their modules.
 */
export async function listMyOrganizationsAndClients(
  ctx: AppContext,
  caller: AuthState,
  query: { page: number; limit: number },
): Promise<Paginated<MyOrganizationEntry>> {
  const page = { limit: query.limit, offset: offsetOf(query) };
  const [total, orgRows, clientRows] = await Promise.all([
    countMyOrganizations(ctx.db, caller.userId),
    pageMyOrganizations(ctx.db, caller.userId, page),
    listVisibleClients(ctx.db, {
      userId: caller.userId,
      appProfile: ctx.config.appProfile,
      organizations: myOrganizationPageIds(ctx.db, caller.userId, page),
    }),
  ]);
  const byOrganization = new Map<string, MyClient[]>();
  for (const row of clientRows) {
    const list = byOrganization.get(row.organizationId) ?? [];
    list.push(toMyClient(row));
    byOrganization.set(row.organizationId, list);
  }
  return pageOf(
    total,
    query,
    orgRows.map((row) => {
      const { created: _created, ...organization } = toOrganizationDto(row.organization, row);
      return { organization, clients: byOrganization.get(row.organization.id) ?? [] };
    }),
  );
}

/** GET /v1/user/clients/: the caller's workspaces, flat (by organization, then by name). */
export async function listUserClients(
  ctx: AppContext,
  caller: AuthState,
  query: { page: number; limit: number },
): Promise<Paginated<Client>> {
  const filter = { userId: caller.userId, appProfile: ctx.config.appProfile };
  const [total, rows] = await Promise.all([
    countVisibleClients(ctx.db, filter),
    listVisibleClientsWithTimes(ctx.db, filter, { limit: query.limit, offset: offsetOf(query) }),
  ]);
  return pageOf(total.count, query, rows.map(toClient));
}

/**
 * Changes committed this long after they were stamped (a transaction still running when the
 * list was read) are caught by the next call: the `timestamp` answered lies this far back, so a
 * few workspaces may come twice, none is missed.
 */
export const SYNC_OVERLAP_MS = 5_000;

/**
 * GET /v1/user/clients/all-settings-data/: the caller's workspaces whose data (the workspace, its
 * modules, the caller's memberships) changed at or after `timestamp`, or all without it; the
 * answer's `timestamp` is what to send next time.
 */
export async function listAllSettings(
  ctx: AppContext,
  caller: AuthState,
  query: AllSettingsQuery,
): Promise<Paginated<AllSettingsEntry> & { timestamp: string }> {
  const filter = {
    userId: caller.userId,
    appProfile: ctx.config.appProfile,
    since: query.timestamp,
  };
  const [total, rows] = await Promise.all([
    countVisibleClients(ctx.db, filter),
    listVisibleClientsWithTimes(ctx.db, filter, { limit: query.limit, offset: offsetOf(query) }),
  ]);
  const results = rows.map((row) => ({ ...toClient(row), modified: row.modified.toISOString() }));
  const timestamp = new Date(total.now.getTime() - SYNC_OVERLAP_MS).toISOString();
  return { ...pageOf(total.count, query, results), timestamp };
}

/**
 * GET /v1/clients/{id}/users/{userId}/settings/: a member's role in the workspace, its modules and
 * its name. Anyone may read their own; the workspace's OWNER, ADMIN or MANAGER (organization
 * OWNERs and ADMINs included) may read another member's.
 */
export async function getUserClientSettings(
  ctx: AppContext,
  actor: Actor,
  userId: string,
): Promise<UserClientSettings> {
  const client = actor.client!;
  if (userId !== actor.userId && !can(actor, 'client.members.manage')) throw forbidden();
  const row = await loadMemberSettings(ctx.db, client.id, userId);
  const role = row && effectiveWorkspaceRole(row);
  if (!row || !role) throw notFound('This user is not a member of the workspace.');
  return {
    role: roleRef(role),
    client_modules: row.modules,
    client_information: { name: row.name },
  };
}
