import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { users } from '../../db/schema/index.ts';
import { notAuthenticated } from '../../lib/errors.ts';

/** The signed-in caller of a request, set by the kernel before the route's handler runs. */
export interface AuthState {
  userId: string;
  sessionId: string;
  user: typeof users.$inferSelect;
  /** The session's last proof of presence: its sign-in or its last step-up (`stepUp` rules). */
  provenAt: Date;
}

/**
 * How the kernel learns who a bearer token names. The auth module answers it (its face's
 * `liveSessionOf`); app.ts hands it over, so this module imports no other (no cycle).
 */
export type SessionOf = (
  ctx: AppContext,
  authorization: string | undefined,
) => Promise<AuthState | 'no-token' | 'ended'>;

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

export function registerAuthentication(app: FastifyInstance, sessionOf: SessionOf): void {
  app.decorateRequest('auth', null);
  app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
    const { ctx } = app;
    const live = await sessionOf(ctx, request.headers.authorization);
    if (live === 'no-token') throw notAuthenticated();
    if (live === 'ended') throw notAuthenticated('Your session has ended. Sign in again.');
    request.auth = live;
    // "Last active": no wait and no statement on most requests (users/last-active.ts).
    ctx.lastActive.seen(live);
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
  } catch {
    request.auth = null;
  }
}

/** The signed-in caller; valid in every route whose declaration is not `public`. */
export function requireAuth(request: FastifyRequest): AuthState {
  if (!request.auth) throw notAuthenticated();
  return request.auth;
}
