import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { dataExports } from '../../db/schema/index.ts';
import type { ArchiveStore } from './archive-store.ts';

/**
 * Deletes archives past their time (the export stays, READY with no archive: its link answers
 * 410), and stored archives no export names that are older than `orphanAgeMs` (a build that
 * crashed between writing its archive and recording it). Rows are taken with SKIP LOCKED, so
 * instances sweeping at once do not wait on each other. Returns how many archives went.
 */
export async function sweepArchives(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  store: ArchiveStore,
  orphanAgeMs: number,
): Promise<number> {
  const now = ctx.clock.now();
  let deleted = 0;
  for (;;) {
    const batch = await ctx.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: dataExports.id, key: dataExports.storage_key })
        .from(dataExports)
        .where(
          and(
            eq(dataExports.status, 'READY'),
            lte(dataExports.expires_at, now),
            isNotNull(dataExports.storage_key),
          ),
        )
        .limit(100)
        .for('update', { skipLocked: true });
      for (const r of rows) await store.delete(r.key!);
      if (rows.length) {
        await tx
          .update(dataExports)
          .set({ storage_key: null, modified_at: now })
          .where(
            inArray(
              dataExports.id,
              rows.map((r) => r.id),
            ),
          );
      }
      return rows.length;
    });
    deleted += batch;
    if (batch < 100) break;
  }
  const stale = (await store.list()).filter(
    (f) => now.getTime() - f.writtenAt.getTime() > orphanAgeMs,
  );
  if (stale.length) {
    const named = await ctx.db
      .select({ key: dataExports.storage_key })
      .from(dataExports)
      .where(
        inArray(
          dataExports.storage_key,
          stale.map((f) => f.key),
        ),
      );
    const keep = new Set(named.map((n) => n.key));
    for (const f of stale.filter((s) => !keep.has(s.key))) {
      await store.delete(f.key);
      deleted++;
    }
  }
  return deleted;
}
