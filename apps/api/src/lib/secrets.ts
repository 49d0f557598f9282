import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The token signing key: JWT_SECRET when set, otherwise one generated on first start and kept in
 * DATA_DIR/secrets/jwt-secret (readable by the owner only), so tokens survive restarts.
 * Several instances on one PostgreSQL must share JWT_SECRET.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  return resolveSecret(configured, dataDir, 'jwt-secret');
}

/**
 * The key that seals secrets at rest (lib/secret-box.ts): ENCRYPTION_KEY when set, otherwise one
 * generated and kept beside the JWT secret (DATA_DIR/secrets/encryption-key). Losing it makes the
 * sealed TOTP secrets unreadable (their owners sign in with a recovery code); several instances
 * on one PostgreSQL must share ENCRYPTION_KEY.
 */
export function resolveEncryptionKey(configured: string | undefined, dataDir: string): string {
  return resolveSecret(configured, dataDir, 'encryption-key');
}

function resolveSecret(configured: string | undefined, dataDir: string, name: string): string {
  if (configured) return configured;
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = crypto.randomBytes(48).toString('base64url');
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      return fs.readFileSync(file, 'utf8').trim();
    throw err;
  }
}
