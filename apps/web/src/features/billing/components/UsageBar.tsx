import { Box } from '@mantine/core';

/** The bar turns orange near the limit and red at it: adding more is refused there (spec §5). */
function colorOf(percent: number): string {
  if (percent >= 100) return 'red';
  if (percent >= 80) return 'orange';
  return 'ocean';
}

/**
 * A usage bar. Not Mantine's Progress: the global loading bar uses that one, and sharing it would
 * move it into the chunk every first load preloads.
 */
export function UsageBar({ percent, label }: { percent: number; label: string }) {
  const value = Math.round(Math.min(100, Math.max(0, percent)));
  return (
    <Box
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={`${value}%`}
      h={8}
      bg="gray.2"
      style={{ borderRadius: 4, overflow: 'hidden' }}
    >
      <Box h="100%" w={`${value}%`} bg={`${colorOf(percent)}.6`} />
    </Box>
  );
}
