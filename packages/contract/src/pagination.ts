import { z } from 'zod';
import { MAX_PAGE_LIMIT } from './constants.ts';

export const paginationQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(10),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

/** `?page&limit` of a list with its own page size and most, and no other parameter. */
export const pageQuerySchema = (pageSize: number, maxLimit: number) =>
  z.strictObject({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(maxLimit).default(pageSize),
  });

/** Every list answers {count, next, previous, results}; next/previous are page numbers or null. */
export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.number().int().nullable(),
    previous: z.number().int().nullable(),
    results: z.array(item),
  });
}
export type Paginated<T> = {
  count: number;
  next: number | null;
  previous: number | null;
  results: T[];
};
