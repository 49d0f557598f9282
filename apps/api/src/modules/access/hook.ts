import {
  can,
  effectiveWorkspaceRole,
  type OrgRole,
  type Permission,
  type WorkspaceRole,
} from '@portolan/contract';
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import type { Db } from '../../db/client.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { requireAuth, type AuthState } from '../auth/index.ts';
import {
  loadClientStanding,
  loadOrganizationStanding,
  type ClientRow,
  type OrganizationRow,
} from './repo.ts';

/**
 * What a route under /v1/organizations/ or /v1/clients/ declares in its config:
 * - `{ organization: 'orgId', permission }`: the path parameter naming the organization;
 * - `{ client: 'clientId', organization?: 'orgId', permission }`: the workspace (and, when the path
 *   names both, the organization it must belong to);
 * - `{ signedIn: 'why no tenant' }`: a signed-in route with no tenant in its path (the reason is
 *   documentation, and makes the choice explicit);
 * - `{ public: 'why anyone' }`: a route with no tenant that needs no session at all, such as
 *   accepting an invitation, whose token is the credential.
 * `permission: null` means any member of the tenant.
 */
export type AccessRule =
  | { organization: string; client?: undefined; permission: Permission | null }
  | { client: string; organization?: string; permission: Permission | null }
  | { signedIn: string }
  | { public: string };

/** The caller as the access layer found them in the tenant of the request. */
export interface Actor extends AuthState {
  organization: OrganizationRow;
  orgRole: OrgRole | null;
  /** Set on workspace routes. */
  client: ClientRow | null;
  workspaceRole: WorkspaceRole | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

const outside = () => notFound('Not found, or you are not a member of it.');

function param(request: FastifyRequest, name: string): string {
  const value = (request.params as Record<string, unknown>)[name];
  if (typeof value !== 'string')
    throw new Error(`route declares access by missing parameter ${name}`);
  return value;
}

/** Which tenant an actor is looked up in: an organization, or a workspace (of an organization). */
export type TenantRef = { organizationId: string } | { clientId: string; organizationId?: string };

/**
 * The caller's standing in one organization or workspace, loaded in one query, or null when they
 * are outside it: no such tenant, not a member, a PENDING membership, a workspace not of the given
 * organization, or a workspace waiting for approval seen by someone other than the organization's
 * OWNERs and ADMINs. Services use it for a tenant named in a body (the hook for one in the path).
 */
export async function findActor(db: Db, auth: AuthState, tenant: TenantRef): Promise<Actor | null> {
  if ('clientId' in tenant) {
    const standing = await loadClientStanding(db, tenant.clientId, auth.userId);
    if (!standing) return null;
    if (tenant.organizationId !== undefined && standing.organization.id !== tenant.organizationId)
      return null;
    const roles = { orgRole: standing.orgRole, workspaceRole: standing.workspaceRole };
    const effective = effectiveWorkspaceRole(roles);
    // A workspace waiting for approval belongs to the organization's OWNERs and ADMINs only.
    const orgAdmin = standing.orgRole === 'OWNER' || standing.orgRole === 'ADMIN';
    if (!effective || (!standing.client.active && !orgAdmin)) return null;
    return { ...auth, ...standing, ...roles };
  }
  const standing = await loadOrganizationStanding(db, tenant.organizationId, auth.userId);
  if (!standing?.orgRole) return null;
  return { ...auth, ...standing, client: null, workspaceRole: null };
}

/**
 * Loads the caller's memberships of the tenant named in the path in one query and decides:
 * outside the tenant answers 404 (a stranger learns nothing, not even that it exists), a member
 * without the permission answers 403, anyone else goes on with `request.actor` set.
 */
export async function resolveActor(
  app: FastifyInstance,
  request: FastifyRequest,
  rule: AccessRule,
): Promise<Actor | null> {
  if ('signedIn' in rule || 'public' in rule) return null;
  const auth = requireAuth(request);
  const tenant: TenantRef =
    rule.client !== undefined
      ? {
          clientId: param(request, rule.client),
          ...(rule.organization !== undefined && {
            organizationId: param(request, rule.organization),
          }),
        }
      : { organizationId: param(request, rule.organization) };
  const actor = await findActor(app.ctx.db, auth, tenant);
  if (!actor) throw outside();
  if (rule.permission && !can(actor, rule.permission)) throw forbidden();
  return actor;
}

/** The actor of a route that declared a tenant; only valid in such routes. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error('requireActor on a route without a tenant access rule');
  return request.actor;
}

/** Routes under these paths act on one organization or workspace: each must declare its rule. */
export const TENANT_PATHS = /^\/v1\/(organizations|clients)\//;

/**
 * Registers the access layer: every route that declares `config.access` is authenticated
 * (onRequest) and, once its parameters are validated, resolved to an actor (preHandler).
 */
export function registerAccess(app: FastifyInstance): void {
  app.decorateRequest('actor', null);
  app.addHook('onRoute', (route: RouteOptions) => {
    const rule = route.config?.access;
    if (!rule) {
      // Fail at start-up, not in production: a tenant route without a rule would be open.
      if (TENANT_PATHS.test(route.url)) {
        throw new Error(`${String(route.method)} ${route.url} must declare config.access`);
      }
      return;
    }
    if ('public' in rule) return;
    const authenticate: onRequestHookHandler = async (request) => app.authenticate(request);
    const access: preHandlerHookHandler = async (request) => {
      request.actor = await resolveActor(app, request, rule);
    };
    route.onRequest = [authenticate, ...toArray(route.onRequest)];
    route.preHandler = [access, ...toArray(route.preHandler)];
  });
}

const toArray = <T>(v: T | T[] | undefined): T[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];
