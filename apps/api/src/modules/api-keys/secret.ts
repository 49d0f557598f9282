import crypto from 'node:crypto';
import { API_KEY_HINT_LENGTH, API_KEY_PREFIX } from '@portolan/contract';

/** What is kept of a key: its SHA-256 (hex). A key is 32 random bytes: no slow hash is needed. */
export const hashApiKey = (key: string): string =>
  crypto.createHash('sha256').update(key, 'utf8').digest('hex');

/** A new key (`ptl_` + 32 random bytes, base64url), its hash and its hint (`ptl_` + 4 characters). */
export function newApiKey(): { key: string; hash: string; hint: string } {
  const key = API_KEY_PREFIX + crypto.randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), hint: key.slice(0, API_KEY_HINT_LENGTH) };
}
