import { Avatar, Box, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAuthStore } from '../../lib/auth-store';
import { currentUserQueryOptions, displayName } from '../../lib/current-user';
import { logout } from '../../lib/session';

/** The avatar menu of the header: Profile and Logout. */
export function UserMenu() {
  const avatarURL = useAuthStore((s) => s.avatarURL);
  const email = useAuthStore((s) => s.user?.email ?? '');
  const { data: user } = useQuery(currentUserQueryOptions());
  const name = user ? displayName(user) : email;
  const [leaving, setLeaving] = useState(false);

  return (
    <Menu
      position="bottom-end"
      width={240}
      shadow="md"
      withinPortal
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>
        <UnstyledButton
          aria-label={`Account menu${name ? ` for ${name}` : ''}`}
          px={6}
          py={4}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group gap="xs" wrap="nowrap">
            <Avatar src={avatarURL || null} alt="" radius="xl" size={34} color="ocean">
              {(name || '?').slice(0, 1).toUpperCase()}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm" maw={180} truncate>
              {name}
            </Text>
            <Box visibleFrom="sm" display="flex">
              <IconChevronDown size={16} aria-hidden="true" />
            </Box>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {email && (
          <Menu.Label>
            <Text size="xs" c="dimmed" truncate>
              Signed in as {email}
            </Text>
          </Menu.Label>
        )}
        <Menu.Item
          component={Link}
          to="/ps/profile"
          leftSection={<IconUserCircle size={16} aria-hidden="true" />}
        >
          Profile
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red.9"
          disabled={leaving}
          leftSection={<IconLogout size={16} aria-hidden="true" />}
          onClick={() => {
            setLeaving(true);
            void logout().finally(() => setLeaving(false));
          }}
        >
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
