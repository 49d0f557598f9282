import type { Paginated } from '@portolan/contract';

/** {count, next, previous, results}: next and previous are page numbers, or null at either end. */
export function pageOf<T>(
  count: number,
  query: { page: number; limit: number },
  results: T[],
): Paginated<T> {
  return {
    count,
    next: query.page * query.limit < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results,
  };
}

/** The rows of a page: `limit` from `offset`. */
export const rowsOf = (query: { page: number; limit: number }) => ({
  limit: query.limit,
  offset: (query.page - 1) * query.limit,
});
