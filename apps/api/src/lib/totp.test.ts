// engine-parity: pure functions, no database
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUrl, totpStep } from './totp.ts';

const RFC_SECRET = Buffer.from('12345678901234567890');

describe('TOTP (RFC 6238)', () => {
  it('gives the test vectors of RFC 6238 appendix B (SHA-1, 8 digits)', () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) {
      expect(hotp(RFC_SECRET, totpStep(new Date(seconds * 1000)), 8)).toBe(code);
    }
  });

  it('round-trips base32 (RFC 4648) and decodes the RFC 4648 vectors', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI======').toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb oi').toString()).toBe('foobar');
    const bytes = Buffer.from([0, 255, 1, 254, 2, 253, 3, 252, 4, 251, 5, 250, 6, 249, 7, 248]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(() => base32Decode('not base32!')).toThrow();
  });

  it('matches the step before, the current and the step after, and no other', () => {
    const at = new Date(1_700_000_000_000);
    const now = totpStep(at);
    for (const offset of [-1, 0, 1]) {
      expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, now + offset), at, 1, null)).toBe(now + offset);
    }
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, now - 2), at, 1, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, now + 2), at, 1, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, '000000x', at, 1, null)).toBeNull();
  });

  it('refuses a code of a step at or before the last one accepted (a replay)', () => {
    const at = new Date(1_700_000_000_000);
    const now = totpStep(at);
    const code = hotp(RFC_SECRET, now);
    expect(matchTotp(RFC_SECRET, code, at, 1, now)).toBeNull();
    expect(matchTotp(RFC_SECRET, code, at, 1, now - 1)).toBe(now);
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, now - 1), at, 1, now - 1)).toBeNull();
  });

  it('writes the otpauth URL authenticator apps read', () => {
    expect(otpauthUrl('Portolan', 'ada@example.com', 'MZXW6YTBOI')).toBe(
      'otpauth://totp/Portolan:ada%40example.com?secret=MZXW6YTBOI&issuer=Portolan&algorithm=SHA1&digits=6&period=30',
    );
  });
});
