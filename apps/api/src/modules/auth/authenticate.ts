import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notAuthenticated } from '../../lib/errors.ts';
import { Audience, bearerToken, verifyToken } from './tokens.ts';
import type { UserRow } from '../users/index.ts';

export interface AuthState {
  userId: string;
  sessionId: string;
  user: UserRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthState | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid token of a live session. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

/**
 * Every protected request checks the token's signature, audience and expiry, and that its
 * session is live and its user enabled (through the session cache: session-cache.ts). Roles are
 * never read from the token.
 */
export function registerAuthentication(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
    const { ctx } = app;
    const token = bearerToken(request.headers.authorization);
    const verified = token
      ? await verifyToken(ctx.jwtKey, ctx.clock, Audience.session, token)
      : null;
    if (!verified?.sid) throw notAuthenticated();
    const live = await ctx.sessions.find({ ...verified, sid: verified.sid });
    if (!live) throw notAuthenticated('Your session has ended. Sign in again.');
    request.auth = { userId: live.user.id, sessionId: live.session.id, user: live.user };
    // "Last active": no wait and no statement on most requests (users/last-active.ts).
    ctx.lastActive.seen(live.user.id);
  });
}

/** The signed-in caller; only valid in routes that run `app.authenticate`. */
export function requireAuth(request: FastifyRequest): AuthState {
  if (!request.auth) throw notAuthenticated();
  return request.auth;
}
