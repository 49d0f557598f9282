/**
 * The account's sessions (issue 20 item 6): each sign-in is a session until it is signed out,
 * revoked or 30 days old. Zod-free: the web app imports these.
 */

/** What kind of device a session's browser said it runs on (from its User-Agent). */
export const SESSION_DEVICES = ['desktop', 'mobile', 'tablet', 'unknown'] as const;
export type SessionDevice = (typeof SESSION_DEVICES)[number];

/** The sessions list's page size unless asked, and its most. */
export const SESSION_PAGE_SIZE = 20;
export const SESSION_MAX_LIMIT = 100;
