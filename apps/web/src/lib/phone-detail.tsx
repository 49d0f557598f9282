import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One line of a row's summary on a phone, where the table hides its column: the term (a fixed
 * width, so the values line up) and the value.
 */
export function PhoneDetail({
  term,
  termWidth,
  children,
}: {
  term: string;
  termWidth: number;
  children: ReactNode;
}) {
  return (
    <Group gap={6} align="flex-start" wrap="nowrap">
      <Text size="xs" c="dimmed" w={termWidth} style={{ flexShrink: 0 }} mt={2}>
        {term}
      </Text>
      <div style={{ minWidth: 0 }}>{children}</div>
    </Group>
  );
}
