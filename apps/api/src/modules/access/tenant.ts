import {
  can,
  effectiveWorkspaceRole,
  type OrgRole,
  type Permission,
  type WorkspaceRole,
} from '@portolan/contract';
import type { Db, Tx } from '../../db/client.ts';
import { forbidden, notFound, type AppError } from '../../lib/errors.ts';
import type { AuthState } from './authenticate.ts';
import {
  loadClientStanding,
  loadOrganizationStanding,
  type ClientRow,
  type Factors,
  type OrganizationRow,
} from './repo.ts';

/** A caller's standing in one tenant: the tenant's rows and the caller's roles in it. */
export interface Standing {
  organization: OrganizationRow;
  orgRole: OrgRole | null;
  /** Set on workspace routes. */
  client: ClientRow | null;
  workspaceRole: WorkspaceRole | null;
  /** The caller's second factors (the organization's MFA policy: mfa-policy.ts). */
  factors: Factors;
}

/** The caller as the kernel found them in the tenant of the request. */
export type Actor = AuthState & Standing;

/** Who is asking: a signed-in caller, or the requester a row names (a job, a download link). */
type Caller = { userId: string };

/** Which tenant an actor is looked up in: an organization, or a workspace (of an organization). */
export type TenantRef = { organizationId: string } | { clientId: string; organizationId?: string };

/**
 * The caller's standing in one organization or workspace, loaded in one query, or null when they
 * are outside it: no such tenant, not a member, a PENDING membership, a workspace not of the given
 * organization, or a workspace waiting for approval seen by someone who may not see those
 * (`organization.clients.manage`: the organization's OWNERs and ADMINs).
 */
async function findActor<C extends Caller>(
  db: Db | Tx,
  auth: C,
  tenant: TenantRef,
): Promise<(C & Standing) | null> {
  if ('clientId' in tenant) {
    const standing = await loadClientStanding(db, tenant.clientId, auth.userId);
    if (!standing) return null;
    if (tenant.organizationId !== undefined && standing.organization.id !== tenant.organizationId)
      return null;
    const roles = { orgRole: standing.orgRole, workspaceRole: standing.workspaceRole };
    if (!effectiveWorkspaceRole(roles)) return null;
    if (!standing.client.active && !can(roles, 'organization.clients.manage')) return null;
    return { ...auth, ...standing, ...roles };
  }
  const standing = await loadOrganizationStanding(db, tenant.organizationId, auth.userId);
  if (!standing?.orgRole) return null;
  return { ...auth, ...standing, client: null, workspaceRole: null };
}

/** What a refusal answers; a service may word its own (a download link, a job's record). */
export interface Refusals {
  /** No such tenant, or the caller is not in it: 404 unless the service says otherwise. */
  outside(): Error;
  /** A member whose role lacks the permission: 403 unless the service says otherwise. */
  denied(): Error;
}

const REFUSALS: Refusals = {
  outside: (): AppError => notFound('Not found, or you are not a member of it.'),
  denied: (): AppError => forbidden(),
};

/**
 * The one tenant decision, for a tenant named in the path (the kernel), in a body or found on a
 * row (services): outside the tenant answers 404 (a stranger learns nothing, not even that it
 * exists), a member without the permission 403 (`null`: any member); anyone else is the actor.
 */
export async function decideTenant<C extends Caller>(
  db: Db | Tx,
  caller: C,
  tenant: TenantRef,
  permission: Permission | null,
  refusals: Partial<Refusals> = {},
): Promise<C & Standing> {
  const refuse = { ...REFUSALS, ...refusals };
  const actor = await findActor(db, caller, tenant);
  if (!actor) throw refuse.outside();
  if (permission && !can(actor, permission)) throw refuse.denied();
  return actor;
}
