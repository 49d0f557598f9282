// engine-parity: pure functions, no database
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

describe('SecretBox: secrets sealed at rest', () => {
  const box = new SecretBox('a configured key of at least thirty-two characters');
  const secret = Buffer.from('the secret of a TOTP factor');

  it('opens what it sealed, and never writes the secret in clear', () => {
    const sealed = box.seal(secret, 'user-1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret.toString('base64url'));
    expect(box.open(sealed, 'user-1')).toEqual(secret);
    // A fresh IV each time: one secret sealed twice gives two values.
    expect(box.seal(secret, 'user-1')).not.toBe(sealed);
  });

  it('refuses another key, another owner, and any change', () => {
    const sealed = box.seal(secret, 'user-1');
    expect(() =>
      new SecretBox('another key of at least thirty-two characters!').open(sealed, 'user-1'),
    ).toThrow();
    expect(() => box.open(sealed, 'user-2')).toThrow();
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() =>
      box.open([v, iv, tag, flipped.toString('base64url')].join('.'), 'user-1'),
    ).toThrow();
    expect(() => box.open('v2.a.b.c', 'user-1')).toThrow();
  });
});
