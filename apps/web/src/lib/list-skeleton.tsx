import { Skeleton, Stack } from '@mantine/core';

/** A list on its way: a few grey rows, marked busy and named by what is loading. */
export function ListSkeleton({
  label,
  rows = 3,
  height = 48,
}: {
  /** "Loading the access rules". */
  label: string;
  rows?: number;
  height?: number;
}) {
  return (
    <Stack gap="xs" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={height} radius="sm" />
      ))}
    </Stack>
  );
}
