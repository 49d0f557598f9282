import { and, asc, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, organizations, releaseNotes, uploads, users } from '../../db/schema/index.ts';
import { hours } from '../../lib/clock.ts';
import type { PruneOptions } from '../../lib/prune-batches.ts';
import { STORAGE_KEY_PATTERN, type FileStorage } from './storage.ts';

/**
 * An upload nothing uses is kept this long: a file is uploaded first and saved into a profile, a
 * logo or a stylesheet by a later request, which may come a while after (a form left open).
 */
export const UNUSED_UPLOAD_GRACE_MS = hours(24);

/** Fewer per batch than other prunes: each file is deleted from the storage too. */
const UPLOAD_BATCH = 100;

/** `/uploads/<key>` anywhere in a text, the key captured (the storage's own key pattern). */
const UPLOAD_PATH_IN_TEXT = `/uploads/(${STORAGE_KEY_PATTERN.source.slice(1, -1)})`;

const keysIn = (column: unknown, table: unknown) =>
  sql`select (regexp_matches(${column}, ${UPLOAD_PATH_IN_TEXT}, 'g'))[1] as key
      from ${table} where ${column} like '%/uploads/%'`;

/**
 * Every key some row points at, wherever an upload's address is kept: avatars, organization and
 * workspace logos, a workspace's header logo and its custom stylesheet (url() of uploads), and
 * release notes (a link may name one). Rows deleted softly still count: they may come back.
 */
const referencedKeys = sql.join(
  [
    keysIn(users.avatar, users),
    keysIn(organizations.logo, organizations),
    keysIn(clients.logo, clients),
    keysIn(clients.default_client_header_logo, clients),
    keysIn(clients.custom_css, clients),
    keysIn(releaseNotes.release_note, releaseNotes),
  ],
  sql` union all `,
);

/**
 * Deletes uploads older than the grace period that no row points at: the stored file, then its
 * row, a batch per transaction. The rows are locked (SKIP LOCKED) while their files are deleted,
 * so instances pruning at once never delete one twice; if the storage fails, the transaction
 * rolls back and the rows stay for the next run (a file already gone is no error to the storage).
 * Returns how many uploads went.
 */
export async function pruneUploads(
  db: Db,
  storage: FileStorage,
  now: Date,
  options: PruneOptions = {},
): Promise<number> {
  const batch = options.batch ?? UPLOAD_BATCH;
  const cutoff = new Date(now.getTime() - UNUSED_UPLOAD_GRACE_MS);
  let total = 0;
  for (;;) {
    const gone = await db.transaction(async (tx) => {
      const unused = await tx
        .select({ id: uploads.id, key: uploads.storage_key })
        .from(uploads)
        .where(
          and(
            lt(uploads.created_at, cutoff),
            sql`not exists (select 1 from (${referencedKeys}) as used where used.key = ${uploads.storage_key})`,
          ),
        )
        .orderBy(asc(uploads.created_at))
        .limit(batch)
        .for('update', { of: uploads, skipLocked: true });
      for (const upload of unused) await storage.delete(upload.key);
      if (unused.length > 0) {
        await tx.delete(uploads).where(
          inArray(
            uploads.id,
            unused.map((u) => u.id),
          ),
        );
      }
      return unused.length;
    });
    total += gone;
    if (gone < batch || options.signal?.aborted) return total;
  }
}
