import crypto from 'node:crypto';

/**
 * Secrets the server must read back (TOTP secrets), sealed at rest with AES-256-GCM under a key
 * from configuration (ENCRYPTION_KEY, or the one generated in DATA_DIR: lib/secrets.ts). A sealed
 * value is `v1.<iv>.<tag>.<ciphertext>` (base64url): the version names the key derivation, so the
 * key can be rotated by adding `v2` beside it. A database dump alone reveals no secret.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    // HKDF: any configured string of 32 characters or more gives a uniform 256-bit key, and this
    // key differs from the token signing key even if one secret were configured for both.
    this.key = Buffer.from(
      crypto.hkdfSync('sha256', secret, Buffer.alloc(0), 'portolan secret-box v1', 32),
    );
  }

  seal(plain: Uint8Array, context: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    // The context (the owner's id) is authenticated: a sealed value copied to another row fails.
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string, context: string): Buffer {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined)
      throw new Error('not a sealed value');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  }
}
