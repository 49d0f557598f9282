import crypto from 'node:crypto';
import { TOTP_DIGITS, TOTP_PERIOD_S } from '@portolan/contract';

/**
 * TOTP (RFC 6238 over RFC 4226's HOTP): HMAC-SHA1, 30-second steps, 6 digits, the parameters every
 * authenticator app takes from an otpauth:// URL. Small enough to keep here rather than in a
 * dependency; test vectors of RFC 6238 appendix B are in totp.test.ts.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, without padding (what otpauth:// URLs carry). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length). */
export const newTotpSecret = () => crypto.randomBytes(20);

/** The HOTP value of a counter, as TOTP_DIGITS digits. */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return (binary % 10 ** digits).toString().padStart(digits, '0');
}

/** The time step of a moment. */
export const totpStep = (at: Date, period = TOTP_PERIOD_S) =>
  Math.floor(at.getTime() / 1000 / period);

/**
 * The step whose code this is, among the current one and `window` steps either side, skipping
 * steps at or before `after` (those already used: a replay); null when none matches. Every
 * candidate is compared in constant time.
 */
export function matchTotp(
  secret: Uint8Array,
  code: string,
  at: Date,
  window: number,
  after: number | null,
): number | null {
  const now = totpStep(at);
  const given = Buffer.from(code.padEnd(TOTP_DIGITS, ' ').slice(0, TOTP_DIGITS));
  let found: number | null = null;
  for (let step = now - window; step <= now + window; step++) {
    const expected = Buffer.from(hotp(secret, step));
    const same = crypto.timingSafeEqual(expected, given);
    if (same && found === null && (after === null || step > after)) found = step;
  }
  return found;
}

/** The URL an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUrl(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_S),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
