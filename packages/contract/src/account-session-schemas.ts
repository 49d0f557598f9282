import { z } from 'zod';
import { SESSION_DEVICES, SESSION_MAX_LIMIT, SESSION_PAGE_SIZE } from './account-sessions.ts';
import { pageQuerySchema, paginated } from './pagination.ts';

/** The account sessions calls' schemas (zod: the API's; the web app imports only their types). */

/** GET /v1/user/sessions/?page&limit: the live sessions, the most recently active first. */
export const sessionListQuerySchema = pageQuerySchema(SESSION_PAGE_SIZE, SESSION_MAX_LIMIT);
export type SessionListQuery = z.infer<typeof sessionListQuerySchema>;

export const accountSessionSchema = z.object({
  id: z.uuid(),
  /** From the User-Agent the session signed in with; `unknown` when it said nothing usable. */
  device: z.enum(SESSION_DEVICES),
  /** "Chrome 156", "Safari 17.4"; null when unknown. */
  browser: z.string().nullable(),
  /** "macOS 14.4", "Android 14", "Linux"; null when unknown. */
  os: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  /** The session's last signed-in request (to 5 minutes), or its sign-in when none came since. */
  last_active_at: z.iso.datetime({ offset: true }),
  expires_at: z.iso.datetime({ offset: true }),
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const sessionListResponseSchema = paginated(accountSessionSchema);
export type SessionListResponse = z.infer<typeof sessionListResponseSchema>;

export const sessionIdParamsSchema = z.strictObject({ id: z.uuid() });

/** POST /v1/user/sessions/revoke-others/: every other live session of the account ends. */
export const revokeOthersResponseSchema = z.object({
  detail: z.string(),
  revoked: z.number().int().min(0),
});
