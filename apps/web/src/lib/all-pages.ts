import { MAX_PAGE_LIMIT, type Paginated } from '@portolan/contract';
import { api } from './api';

/**
 * Every item of a paginated list (`{count, next, previous, results}`), read in pages of the
 * largest size until `next` is null: for the screens that need the whole list at once (a
 * picker, a search over a short list).
 */
export async function fetchAllPages<T>(
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const list = await api.get<Paginated<T>>(path, {
      signal: options.signal,
      query: { page, limit: MAX_PAGE_LIMIT },
    });
    items.push(...list.results);
    if (!list.next || list.results.length === 0) return items;
  }
}
