import type { Paginated } from '@portolan/contract';
import { sql } from 'drizzle-orm';

/** The total of a listing query, riding along on every row as a window count. */
export const windowTotal = sql<number>`count(*) over ()`.mapWith(Number);

/**
 * One page from rows that carry `total`: a page past the end has no row to carry it, so only
 * then is the total counted on its own (`countAll`).
 */
export async function pageOf<R extends { total: number }, T>(
  query: { page: number; limit: number },
  rows: R[],
  toDto: (row: R) => T,
  countAll: () => Promise<number>,
): Promise<Paginated<T>> {
  const count = rows[0]?.total ?? (query.page > 1 ? await countAll() : 0);
  return {
    count,
    next: query.page * query.limit < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: rows.map(toDto),
  };
}
