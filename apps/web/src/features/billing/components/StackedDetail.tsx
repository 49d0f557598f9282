import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One line of a row's summary on a phone, where the table hides that column: the term (a fixed
 * width, so the values line up) and the value.
 */
export function StackedDetail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Group gap={6} align="flex-start" wrap="nowrap">
      <Text size="xs" c="dimmed" w={84} style={{ flexShrink: 0 }} mt={2}>
        {term}
      </Text>
      <div style={{ minWidth: 0 }}>{children}</div>
    </Group>
  );
}
