import { Avatar, Badge, Group, Stack, Text } from '@mantine/core';
import { ROLE_NAMES, type MembershipStatus, type Role } from '@portolan/contract';
import type { ReactNode } from 'react';
import { displayName } from './current-user';
import { formatDate } from './dates';

/**
 * How a member is shown in the member lists and pages of organizations and workspaces: who they
 * are, their role, whether their invitation is pending and when they were last active.
 */

interface Person {
  email: string;
  first_name: string;
  last_name: string;
  avatar?: string | null;
}

/** The avatar, the name (the e-mail when there is none) and the e-mail below it. */
export function MemberIdentity({
  user,
  size = 32,
  name,
}: {
  user: Person;
  size?: number;
  /** Replaces the name line (a link to the member, for example). */
  name?: ReactNode;
}) {
  const label = displayName(user);
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={user.avatar ?? null} alt="" size={size} radius="xl" color="ocean">
        {label.slice(0, 1).toUpperCase()}
      </Avatar>
      <Stack gap={0} style={{ minWidth: 0 }}>
        {name ?? <Text fw={600}>{label}</Text>}
        {label !== user.email && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Text>
        )}
      </Stack>
    </Group>
  );
}

const ROLE_COLORS: Record<Role, string> = {
  OWNER: 'grape',
  ADMIN: 'blue',
  MANAGER: 'cyan',
  STAFF: 'gray',
  CLIENT: 'orange',
};

export function RoleBadge({ role }: { role: Role }) {
  return (
    <Badge color={ROLE_COLORS[role]} variant="light" c="dark.7" miw="max-content">
      {ROLE_NAMES[role]}
    </Badge>
  );
}

/** "Pending" while the invitation waits for an answer; "Member" once accepted. */
export function MemberStatusBadge({ status }: { status: MembershipStatus }) {
  return status === 'PENDING' ? (
    <Badge color="orange" variant="outline" c="dark.7" miw="max-content">
      Pending
    </Badge>
  ) : (
    <Badge color="teal" variant="light" c="dark.7" miw="max-content">
      Member
    </Badge>
  );
}

/**
 * When a member was last active: "Just now", "5 minutes ago" or "3 hours ago" within a day,
 * MM/DD/YYYY HH:mm before; "Never" for someone who has not been active yet. The server keeps it
 * to 5 minutes.
 */
export function lastActive(iso: string | null, now: number = Date.now()): string {
  if (!iso) return 'Never';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const minutes = Math.floor((now - at.getTime()) / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  const hh = String(at.getHours()).padStart(2, '0');
  const mm = String(at.getMinutes()).padStart(2, '0');
  return `${formatDate(iso)} ${hh}:${mm}`;
}
