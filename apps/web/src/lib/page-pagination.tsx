import { Group, Pagination } from '@mantine/core';

/**
 * The page switcher under a paged list, with spoken labels for its controls ("Previous page",
 * "Page 2"); nothing when everything fits on one page.
 */
export function PagePagination({
  total,
  page,
  onChange,
}: {
  /** The number of pages. */
  total: number;
  page: number;
  onChange: (page: number) => void;
}) {
  if (total <= 1) return null;
  return (
    <Group justify="center">
      <Pagination
        total={total}
        value={page}
        onChange={onChange}
        getControlProps={(control) => ({
          'aria-label':
            control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : control,
        })}
        getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
      />
    </Group>
  );
}
