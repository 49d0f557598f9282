import type { Permission } from '@portolan/contract';
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import { ErrorCode } from '@portolan/contract';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import {
  authenticateIfSent,
  registerAuthentication,
  requireAuth,
  type ApiKeyCaller,
  type KeyOf,
  type SessionAuth,
  type SessionOf,
} from './authenticate.ts';
import { requireMfaPolicy } from './mfa-policy.ts';
import { decideTenant, type Actor, type TenantRef } from './tenant.ts';

/** Hooks a declaration runs before authentication (a per-address limit that refuses first). */
interface Before {
  before?: onRequestHookHandler[];
}

/** A route anyone may call; the reason is documentation and makes the choice explicit. */
export type PublicRule = Before & {
  public: string;
  /** The route reads the caller when a valid session token is sent (`request.auth`, else null). */
  optionalSession?: true;
};
/**
 * What a signed-in route may require beyond its kind (issue 20): `stepUp`, a proof of presence
 * (the session's sign-in or its last step-up) within STEP_UP_MAX_AGE_S, else 403
 * STEP_UP_REQUIRED. A function decides from the validated request (a role change needs it only
 * to OWNER or ADMIN). Checked after the kind's own decision: who may not act at all learns that
 * first.
 */
interface Requirements {
  stepUp?: true | ((request: FastifyRequest) => boolean);
  /**
   * A person's act on a tenant route (opening a module as oneself): an API key is refused even
   * when its permissions cover the route (decision 0018). `stepUp` implies it.
   */
  person?: true;
}

/** A route for anyone signed in, with no tenant in its path. */
export type SignedInRule = Before & Requirements & { signedIn: string };
/**
 * A route of one organization or workspace: the path parameters naming it (both, when the path
 * names both: the workspace must belong to that organization) and the permission needed
 * (`null`: any member).
 */
export type TenantRule = Before &
  Requirements &
  (
    | { organization: string; client?: undefined; permission: Permission | null }
    | { client: string; organization?: string; permission: Permission | null }
  ) & {
    /**
     * Where the tenant's ids are: the path (default), or the validated body of a route whose path
     * names no tenant (POST /v1/access/check/ {client_id}).
     */
    in?: 'body';
  };
/** A route of the platform's administrators; the text ends "Only platform administrators can …". */
export type PlatformAdminRule = Before & { platformAdmin: string };

/** What every route declares in `config.access`: exactly one kind. */
export type AccessRule = PublicRule | SignedInRule | TenantRule | PlatformAdminRule;

type KindName = 'public' | 'signedIn' | 'tenant' | 'platformAdmin';
type RuleOf<K extends KindName> = {
  public: PublicRule;
  signedIn: SignedInRule;
  tenant: TenantRule;
  platformAdmin: PlatformAdminRule;
}[K];

export function kindOf(rule: AccessRule): KindName {
  if ('public' in rule) return 'public';
  if ('signedIn' in rule) return 'signedIn';
  if ('platformAdmin' in rule) return 'platformAdmin';
  return 'tenant';
}

/** Who the caller may be, as the kernel establishes it before anything else of the route runs. */
type Session = 'none' | 'optional' | 'required';

/** What the kernel does for one kind: the session it needs, then a decision before or after validation. */
interface Kind<R> {
  session(rule: R): Session;
  /** Before the body and parameters are validated (nothing of the request is trusted yet). */
  beforeValidation?(app: FastifyInstance, request: FastifyRequest, rule: R): Promise<void>;
  /** Once the parameters are validated: may set `request.actor`. */
  afterValidation?(app: FastifyInstance, request: FastifyRequest, rule: R): Promise<void>;
}

export interface KernelDeps {
  /** Who a bearer token names (the auth module's `liveSessionOf`). */
  sessionOf: SessionOf;
  /** Which API key a `Bearer ptl_…` names (the api-keys module's resolver). */
  keyOf: KeyOf;
  /** Whether a user is a platform administrator (the release-notes module's `isPlatformAdmin`). */
  isPlatformAdmin(app: FastifyInstance, userId: string): Promise<boolean>;
  /** How a signed-in caller can prove presence (the auth module's `stepUpMethodsOf`). */
  stepUpMethods(app: FastifyInstance, auth: SessionAuth): Promise<string[]>;
}

function param(request: FastifyRequest, name: string, from: 'params' | 'body' = 'params'): string {
  const value = (request[from] as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== 'string')
    throw new Error(`route declares access by missing parameter ${name}`);
  return value;
}

function tenantOf(request: FastifyRequest, rule: TenantRule): TenantRef {
  const from = rule.in === 'body' ? 'body' : 'params';
  if (rule.client === undefined) return { organizationId: param(request, rule.organization, from) };
  return {
    clientId: param(request, rule.client, from),
    ...(rule.organization !== undefined && {
      organizationId: param(request, rule.organization, from),
    }),
  };
}

/**
 * The kinds as data: one entry each. A new kind of caller (an API key) or requirement (MFA,
 * step-up) is a new entry here and a new member of AccessRule.
 */
function kinds(deps: KernelDeps): { [K in KindName]: Kind<RuleOf<K>> } {
  return {
    public: { session: (rule) => (rule.optionalSession ? 'optional' : 'none') },
    signedIn: { session: () => 'required' },
    tenant: {
      session: () => 'required',
      // Outside the tenant 404, without the permission 403: after validation, so a malformed id
      // answers 400 naming the parameter before any lookup.
      async afterValidation(app, request, rule) {
        const auth = requireAuth(request);
        const tenant = tenantOf(request, rule);
        if (auth.apiKey) keyReaches(auth.apiKey, tenant, rule.permission);
        const actor = await decideTenant(app.ctx.db, auth, tenant, rule.permission);
        if (auth.apiKey && actor.organization.id !== auth.apiKey.organizationId) throw keyOutside();
        // Then the organization's MFA policy: who may act at all learns that first.
        requireMfaPolicy(actor, app.ctx.clock.now());
        request.actor = actor;
      },
    },
    platformAdmin: {
      session: () => 'required',
      // Before the body is validated: anyone else learns only that they may not.
      async beforeValidation(app, request, rule) {
        if (!(await deps.isPlatformAdmin(app, requireAuth(request).userId))) {
          throw forbidden(`Only platform administrators can ${rule.platformAdmin}.`);
        }
      },
    },
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

const keyOutside = () => notFound('Not found, or this API key cannot reach it.');

/**
 * What an API key may reach before its creator's standing is read (issue 21 item 1): a route
 * whose permission the key carries (a route for any member, permission null, names none, so no
 * key reaches it), of the key's organization, in one of its workspaces when it names some. Then
 * the tenant decision runs for the key's creator: the key never does more than they can now.
 */
function keyReaches(key: ApiKeyCaller, tenant: TenantRef, permission: Permission | null): void {
  if ('organizationId' in tenant && tenant.organizationId !== undefined) {
    if (tenant.organizationId !== key.organizationId) throw keyOutside();
  }
  if ('clientId' in tenant && key.workspaceIds && !key.workspaceIds.includes(tenant.clientId))
    throw keyOutside();
  if (permission === null || !key.permissions.includes(permission))
    throw forbidden(
      permission === null
        ? 'API keys cannot call this route: it is for members signed in.'
        : `This API key does not have the permission this needs (${permission}).`,
    );
}

/**
 * Routes that are not a tenant's (the account's own, the platform's) are a person's: an API key
 * is refused there, whatever it may do in its organization.
 */
function refuseKeys(request: FastifyRequest): void {
  if (request.auth?.apiKey)
    throw forbidden('API keys cannot call this route: it needs a person signed in.');
}

/** A `stepUp` condition: the validated body gives the role OWNER or ADMIN (a role change). */
export const toOwnerOrAdmin = (request: FastifyRequest): boolean => {
  const role = (request.body as { role?: unknown } | undefined)?.role;
  return role === 'OWNER' || role === 'ADMIN';
};

/** 403 STEP_UP_REQUIRED unless the session proved presence within STEP_UP_MAX_AGE_S. */
async function requireStepUp(
  app: FastifyInstance,
  deps: KernelDeps,
  request: FastifyRequest,
  stepUp: NonNullable<Requirements['stepUp']>,
): Promise<void> {
  if (stepUp !== true && !stepUp(request)) return;
  const auth = requireAuth(request);
  // A key cannot prove that a person is present: what asks for it is a person's to do.
  if (auth.kind === 'api-key')
    throw forbidden('This needs a person to confirm it is them: an API key cannot do it.');
  const age = app.ctx.clock.now().getTime() - auth.provenAt.getTime();
  if (age <= app.ctx.config.stepUpMaxAgeMs) return;
  throw new AppError(
    ErrorCode.STEP_UP_REQUIRED,
    'For your security, confirm it is you: enter your password or a code to continue.',
    { methods: await deps.stepUpMethods(app, auth) },
  );
}

/** The actor of a route that declared a tenant; only valid in such routes. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error('requireActor on a route without a tenant access rule');
  return request.actor;
}

const SCOPE_RULE = Symbol('access.scopeRule');
type Scoped = FastifyInstance & { [SCOPE_RULE]?: AccessRule };

/**
 * Declares access for every route registered inside `register` that declares none itself: for
 * routes a library registers (the OpenAPI UI, the web app's files), whose options we do not
 * write. The declaration is made where the library is registered, so it is still explicit.
 */
export function declaredScope(
  rule: AccessRule,
  register: (scope: FastifyInstance) => Promise<void>,
): (scope: FastifyInstance) => Promise<void> {
  return async (scope) => {
    (scope as Scoped)[SCOPE_RULE] = rule;
    await register(scope);
  };
}

const toArray = <T>(v: T | T[] | undefined): T[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

const label = (route: RouteOptions) =>
  `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url}`;

/**
 * Registers the request kernel: every route must declare `config.access` (start-up fails
 * otherwise, naming each route that does not); the kernel authenticates every kind but `public`
 * (onRequest, ahead of the route's own hooks) and runs the kind's decision.
 */
export function registerAccess(app: FastifyInstance, deps: KernelDeps): void {
  registerAuthentication(app, deps.sessionOf, deps.keyOf);
  app.decorateRequest('actor', null);
  const table = kinds(deps);
  const undeclared: string[] = [];
  app.addHook('onRoute', function (this: Scoped, route: RouteOptions) {
    const rule = route.config?.access ?? this[SCOPE_RULE];
    if (!rule) {
      undeclared.push(label(route));
      return;
    }
    route.config = { ...route.config, access: rule };
    const own = [route.onRequest, route.preValidation, route.preHandler].flatMap(toArray);
    if (own.includes(app.authenticate as never)) {
      throw new Error(`${label(route)} wires app.authenticate: declare config.access instead`);
    }
    const kind = table[kindOf(rule)] as Kind<AccessRule>;
    const session = kind.session(rule);
    const authenticate: onRequestHookHandler[] =
      session === 'required'
        ? [async (request) => app.authenticate(request)]
        : session === 'optional'
          ? [async (request) => authenticateIfSent(app, request)]
          : [];
    // An API key reaches tenant routes only (the tenant decision says which); refused elsewhere
    // as soon as it is known, before anything of the request is read.
    if (session === 'required' && kindOf(rule) !== 'tenant')
      authenticate.push(async (request) => refuseKeys(request));
    route.onRequest = [...(rule.before ?? []), ...authenticate, ...toArray(route.onRequest)];
    const { beforeValidation, afterValidation } = kind;
    if (beforeValidation) {
      const hook: preHandlerHookHandler = async (request) => beforeValidation(app, request, rule);
      route.preValidation = [hook, ...toArray(route.preValidation)];
    }
    const decisions: preHandlerHookHandler[] = [];
    if (afterValidation) decisions.push(async (request) => afterValidation(app, request, rule));
    if ('person' in rule && rule.person) decisions.push(async (request) => refuseKeys(request));
    const stepUp = 'stepUp' in rule ? rule.stepUp : undefined;
    if (stepUp) decisions.push(async (request) => requireStepUp(app, deps, request, stepUp));
    route.preHandler = [...decisions, ...toArray(route.preHandler)];
  });
  // Fail at start-up, not in production: a route without a declaration would be open by omission.
  app.addHook('onReady', async () => {
    if (undeclared.length > 0) {
      throw new Error(
        `every route must declare config.access (public, signedIn, tenant or platformAdmin); ` +
          `these do not: ${undeclared.join('; ')}`,
      );
    }
  });
}
