import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { uploads } from '../../db/schema/index.ts';
import { STORAGE_KEY_PATTERN } from './storage.ts';

/**
 * True when `url` is `/uploads/<key>` of a file this user uploaded: other modules use this to
 * accept an avatar or a logo only from the caller's own uploads.
 */
export async function isOwnUploadUrl(db: Db, userId: string, url: string): Promise<boolean> {
  const key = /^\/uploads\/([^/]+)$/.exec(url)?.[1];
  if (!key || !STORAGE_KEY_PATTERN.test(key)) return false;
  const [row] = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.storage_key, key), eq(uploads.user_id, userId)))
    .limit(1);
  return row !== undefined;
}
