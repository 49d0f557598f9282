import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { users } from '../../db/schema/index.ts';
import { notAuthenticated } from '../../lib/errors.ts';

/** A signed-in person: the user of a live session. */
export interface SessionAuth {
  kind: 'session';
  userId: string;
  sessionId: string;
  user: typeof users.$inferSelect;
  /** The session's last proof of presence: its sign-in or its last step-up (`stepUp` rules). */
  provenAt: Date;
  apiKey: null;
}

/** An organization's API key (issue 21 item 1), as the kernel resolved it. */
export interface ApiKeyCaller {
  id: string;
  name: string;
  organizationId: string;
  permissions: readonly string[];
  /** Null: every workspace of the organization. */
  workspaceIds: readonly string[] | null;
}

/**
 * A system calling with an API key: it acts as its creator (`userId`, `user`) could, now, within
 * the key's permissions and organization (the kernel's tenant decision). No session, no presence.
 */
export interface KeyAuth {
  kind: 'api-key';
  userId: string;
  sessionId: null;
  user: typeof users.$inferSelect;
  provenAt: null;
  apiKey: ApiKeyCaller;
}

/** The authenticated caller of a request, set by the kernel before the route's handler runs. */
export type AuthState = SessionAuth | KeyAuth;

/**
 * How the kernel learns who a bearer token names. The auth module answers it (its face's
 * `liveSessionOf`); app.ts hands it over, so this module imports no other (no cycle).
 */
export type SessionOf = (
  ctx: AppContext,
  authorization: string | undefined,
) => Promise<Omit<SessionAuth, 'kind' | 'apiKey'> | 'no-token' | 'ended'>;

/**
 * How the kernel learns which API key a `Bearer ptl_…` names (the api-keys module's resolver):
 * 'ended' for a key that is unknown, revoked, expired, or whose creator may no longer act.
 */
export type KeyOf = (
  ctx: AppContext,
  key: string,
  ip: string,
) => Promise<Omit<KeyAuth, 'kind' | 'sessionId' | 'provenAt'> | 'ended'>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthState | null;
  }
  interface FastifyInstance {
    /**
     * The kernel's authentication: 401 unless the request carries a valid token of a live
     * session. Routes never wire it: they declare `config.access`. A long-lived answer (the
     * notification stream) calls it again to check the session is still live.
     */
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

const KEY_BEARER = /^Bearer (ptl_\S+)$/;

export function registerAuthentication(
  app: FastifyInstance,
  sessionOf: SessionOf,
  keyOf: KeyOf,
): void {
  app.decorateRequest('auth', null);
  app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
    const { ctx } = app;
    const key = KEY_BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (key !== undefined) {
      const caller = await keyOf(ctx, key, request.ip);
      if (caller === 'ended')
        throw notAuthenticated(
          'This API key does not work: it was revoked or has expired, or whoever created it can no longer act for the organization.',
        );
      request.auth = { kind: 'api-key', sessionId: null, provenAt: null, ...caller };
      return;
    }
    const live = await sessionOf(ctx, request.headers.authorization);
    if (live === 'no-token') throw notAuthenticated();
    if (live === 'ended') throw notAuthenticated('Your session has ended. Sign in again.');
    const auth: SessionAuth = { kind: 'session', apiKey: null, ...live };
    request.auth = auth;
    // "Last active": no wait and no statement on most requests (users/last-active.ts).
    ctx.lastActive.seen(auth);
  });
}

/**
 * A route that declared `{ public, optionalSession: true }`: `request.auth` is the caller when a
 * valid session token is sent, and null otherwise (a missing, invalid or expired one is ignored).
 */
export async function authenticateIfSent(app: FastifyInstance, request: FastifyRequest) {
  if (!request.headers.authorization) return;
  try {
    await app.authenticate(request);
    // Such a route reads a person, never an API key: a key's request is an anonymous one here.
    if (request.auth?.apiKey) request.auth = null;
  } catch {
    request.auth = null;
  }
}

/** The signed-in caller; valid in every route whose declaration is not `public`. */
export function requireAuth(request: FastifyRequest): AuthState {
  if (!request.auth) throw notAuthenticated();
  return request.auth;
}

/**
 * The signed-in person of a `signedIn` or `platformAdmin` route, which the kernel never lets an
 * API key call (kernel.ts `refuseKeys`).
 */
export function requireSession(request: FastifyRequest): SessionAuth {
  const auth = requireAuth(request);
  if (auth.kind !== 'session') throw new Error('requireSession on a route an API key reached');
  return auth;
}
