import crypto from 'node:crypto';

/**
 * An invitation token: 32 random bytes (256 bits), base64url, given only to the invitee (the
 * e-mail's link and the notification's meta). The database keeps its SHA-256 alone, so a copy of
 * the table lets nobody accept anything.
 */
export function newInvitationToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

/** The SHA-256 (hex) an invitation row stores and is looked up by. */
export const hashInvitationToken = (token: string): string =>
  crypto.createHash('sha256').update(token, 'utf8').digest('hex');
