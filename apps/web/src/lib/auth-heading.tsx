import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The one h1 of a public page (sign-in, registration, reset, invitation), with a line of explanation. */
export function AuthHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap={6} mb="lg">
      <Title order={1} fz={26} lh={1.25}>
        {title}
      </Title>
      {children && (
        <Text c="dimmed" size="sm">
          {children}
        </Text>
      )}
    </Stack>
  );
}
