import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A part of the page: a card with its title (naming the region) and what it is for. */
export function TitledPart({
  id,
  title,
  description,
  action,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card padding="lg" withBorder component="section" aria-labelledby={id}>
      <Group justify="space-between" align="flex-start" gap="sm" mb="md">
        <Stack gap={2} maw={640}>
          <Title order={3} fz="h4" id={id}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        {action}
      </Group>
      {children}
    </Card>
  );
}
