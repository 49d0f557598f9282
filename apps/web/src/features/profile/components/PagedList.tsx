import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { PagePagination } from '../../../lib/page-pagination';

/** A named list of rows without bullets (SessionsCard, SecurityLogCard), then its page switcher. */
export function PagedList({
  label,
  pages,
  page,
  onPage,
  children,
}: {
  label: string;
  /** The number of pages. */
  pages: number;
  page: number;
  onPage: (page: number) => void;
  /** The rows: `li` elements. */
  children: ReactNode;
}) {
  return (
    <Stack gap="md">
      <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
        {children}
      </Stack>
      <PagePagination total={pages} page={page} onChange={onPage} />
    </Stack>
  );
}
