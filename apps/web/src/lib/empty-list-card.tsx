import { Card, EmptyState } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * A list with nothing in it (none yet, or none matching the filters): an icon, a title saying so
 * and a sentence saying what to do, in a bordered card where the list would be.
 */
export function EmptyListCard({
  icon: ListIcon,
  title,
  children,
  descriptionMaw,
}: {
  icon: Icon;
  title: string;
  /** What to do about it. */
  children: ReactNode;
  descriptionMaw?: number;
}) {
  return (
    <Card padding="xl" withBorder>
      <EmptyState variant="light" icon={<ListIcon size={36} stroke={1.5} aria-hidden="true" />}>
        <EmptyState.Title order={3}>{title}</EmptyState.Title>
        <EmptyState.Description maw={descriptionMaw}>{children}</EmptyState.Description>
      </EmptyState>
    </Card>
  );
}
