import { Card, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A part of the wallet settings: a bordered card whose title names the region. */
export function WalletSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={3} fz="h4" id={id}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        {children}
      </Stack>
    </Card>
  );
}
