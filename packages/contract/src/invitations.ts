/**
 * Invitations to an organization or a workspace (REFERENCE "Invitations"). Zod-free constants;
 * the request schemas live beside them.
 */

/** What an invitation is to: the `type` of an INVITATION notification's meta. */
export const INVITATION_KINDS = ['organization', 'client'] as const;
export type InvitationKind = (typeof INVITATION_KINDS)[number];

/** PENDING until accepted or declined; REVOKED when a resend replaced it or the member was removed. */
export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED', 'REVOKED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** An invitation token is valid this long (7 days). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
