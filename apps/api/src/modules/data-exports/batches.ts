/** Rows read per query when a data set is streamed (activities, ledger entries). */
export const BATCH = 1000;

/** Where a keyset read stopped: the last row's time as the database writes it, and its id. */
export interface Cursor {
  /** `created_at::text`: the database's own precision (a JS Date would round microseconds). */
  at: string;
  id: string;
}

/**
 * Every row of a data set, a batch at a time by keyset (created_at, id) — never OFFSET, never the
 * whole set in memory. `next` reads up to BATCH rows after the cursor (or from the start).
 */
export async function* keyset<R extends { at: string; id: string }>(
  next: (after: Cursor | null) => Promise<R[]>,
): AsyncGenerator<R> {
  let cursor: Cursor | null = null;
  for (;;) {
    const batch = await next(cursor);
    yield* batch;
    const last = batch.at(-1);
    if (!last || batch.length < BATCH) return;
    cursor = { at: last.at, id: last.id };
  }
}

/** JSON Lines: one JSON document per line. */
export async function* jsonLines<T>(
  rows: AsyncIterable<T>,
  toJson: (row: T) => unknown,
): AsyncGenerator<string> {
  for await (const row of rows) yield `${JSON.stringify(toJson(row))}\n`;
}
