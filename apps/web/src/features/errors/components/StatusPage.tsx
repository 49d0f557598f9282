import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SupportLine } from '../../../lib/support-contact';

export interface StatusPageProps {
  icon: ReactNode;
  color: string;
  title: string;
  children: ReactNode;
  /** Extra actions beside the button home. */
  actions?: ReactNode;
  /** The way home: the home page (`/`) unless given. */
  home?: { to: string; label: string };
  /** The opening words of the line naming the support address (spec §1). */
  supportLead?: string;
}

/**
 * A status page in the public card: an icon, one h1, what happened, how to reach support, and a
 * way home.
 */
export function StatusPage({
  icon,
  color,
  title,
  children,
  actions,
  home = { to: '/', label: 'Go to the home page' },
  supportLead,
}: StatusPageProps) {
  return (
    <Stack align="center" gap="md" ta="center">
      <ThemeIcon size={64} radius="xl" variant="light" color={color} aria-hidden="true">
        {icon}
      </ThemeIcon>
      <Title order={1} fz="h2">
        {title}
      </Title>
      <Text c="dimmed">{children}</Text>
      <SupportLine lead={supportLead} />
      <Stack gap="xs" w="100%" mt="xs">
        <Button component={Link} to={home.to} fullWidth>
          {home.label}
        </Button>
        {actions}
      </Stack>
    </Stack>
  );
}
