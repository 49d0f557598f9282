import type { Paginated } from '@portolan/contract';
import { sql } from 'drizzle-orm';

/** A page asked for: 1-based `page` of `limit` items. */
export interface PageQuery {
  page: number;
  limit: number;
}

/** {count, next, previous, results}: next and previous are page numbers, or null at either end. */
export function pageOf<T>(count: number, query: PageQuery, results: T[]): Paginated<T> {
  return {
    count,
    next: query.page * query.limit < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results,
  };
}

/** The rows a page skips. */
export const offsetOf = (query: PageQuery) => (query.page - 1) * query.limit;

/** The rows of a page: `limit` from `offset`. */
export const rowsOf = (query: PageQuery) => ({ limit: query.limit, offset: offsetOf(query) });

/** The total of a listing query, riding along on every row as a window count. */
export const windowTotal = sql<number>`count(*) over ()`.mapWith(Number);

/**
 * One page from rows that carry `total` (windowTotal): a page past the end has no row to carry
 * it, so only then is the total counted on its own (`countAll`).
 */
export async function pageFromRows<R extends { total: number }, T>(
  query: PageQuery,
  rows: R[],
  toDto: (row: R) => T,
  countAll: () => Promise<number>,
): Promise<Paginated<T>> {
  const count = rows[0]?.total ?? (query.page > 1 ? await countAll() : 0);
  return pageOf(count, query, rows.map(toDto));
}
