import crypto from 'node:crypto';
import { SHARE_TOKEN_BYTES } from '@portolan/contract';

/**
 * A share link's token: 32 random bytes (256 bits), base64url (43 characters), given once to the
 * member who made the link. The database keeps its SHA-256 alone, so a copy of the table opens
 * no link; a link is found by the hash of what the visitor brings.
 */
export function newShareToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(SHARE_TOKEN_BYTES).toString('base64url');
  return { token, hash: hashShareToken(token) };
}

/** The SHA-256 (hex) a share_links row stores and is looked up by. */
export const hashShareToken = (token: string): string =>
  crypto.createHash('sha256').update(token, 'utf8').digest('hex');
