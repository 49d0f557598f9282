import type { AppContext } from '../../context.ts';
import type { UserRow } from '../users/index.ts';
import { Audience, bearerToken, verifyToken } from './tokens.ts';

/** A session the bearer token of a request names, when it is live. */
export interface LiveSession {
  userId: string;
  sessionId: string;
  user: UserRow;
  provenAt: Date;
}

/**
 * The auth module's answer to the request kernel (modules/access): the token's signature,
 * audience and expiry, then that its session is live and its user enabled (through the session
 * cache: session-cache.ts). `no-token` and `ended` tell the kernel which 401 to answer. Roles are
 * never read from the token.
 */
export async function liveSessionOf(
  ctx: AppContext,
  authorization: string | undefined,
): Promise<LiveSession | 'no-token' | 'ended'> {
  const token = bearerToken(authorization);
  const verified = token ? await verifyToken(ctx.jwtKey, ctx.clock, Audience.session, token) : null;
  if (!verified?.sid) return 'no-token';
  const live = await ctx.sessions.find({ ...verified, sid: verified.sid });
  if (!live) return 'ended';
  return {
    userId: live.user.id,
    sessionId: live.session.id,
    user: live.user,
    provenAt: live.session.stepped_up_at ?? live.session.created_at,
  };
}
