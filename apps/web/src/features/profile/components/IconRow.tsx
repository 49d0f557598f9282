import { Group, Stack, Text, ThemeIcon } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * A row of the Security tab's lists (sessions, passkeys): an icon, the name with its badges, a line
 * of details under it, and the row's action at the end (below the rest on a narrow screen).
 */
export function IconRow({
  icon: RowIcon,
  name,
  badges,
  details,
  action,
}: {
  icon: Icon;
  name: string;
  badges?: ReactNode;
  details: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Group component="li" justify="space-between" gap="sm" py="sm" wrap="wrap">
      <Group gap="sm" wrap="nowrap" align="flex-start" miw={0}>
        <ThemeIcon variant="light" size="lg" radius="md" aria-hidden="true">
          <RowIcon size={20} stroke={1.6} />
        </ThemeIcon>
        <Stack gap={2} miw={0}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>
            {badges}
          </Group>
          <Text size="sm" c="dimmed">
            {details}
          </Text>
        </Stack>
      </Group>
      {action}
    </Group>
  );
}
