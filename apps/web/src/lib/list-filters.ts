import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

export interface ListFilters {
  search: string;
  setSearch: (value: string) => void;
  /** The search as sent: trimmed, after a pause in typing. */
  key: string;
  page: number;
  setPage: (page: number) => void;
}

/**
 * The search box and the page of a paged list. Another search, or another value of `other` (the
 * list's other filters, compared with `!==`), starts again at page 1.
 */
export function useListFilters(other: unknown = null): ListFilters {
  const [search, setSearch] = useState('');
  const [key] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [filterOfPage, setFilterOfPage] = useState({ key, other });
  if (filterOfPage.key !== key || filterOfPage.other !== other) {
    setFilterOfPage({ key, other });
    setPage(1);
  }
  return { search, setSearch, key, page, setPage };
}
