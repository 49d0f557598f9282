import { Button, Group } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';

export interface SettingsTab {
  to: string;
  label: string;
  icon: Icon;
}

/**
 * The sub-navigation of a settings area (organization, workspace): one button a tab, the tab
 * whose path the current page is under filled and marked as the current page.
 */
export function SettingsNav({ label, tabs }: { label: string; tabs: SettingsTab[] }) {
  const { pathname } = useLocation();
  return (
    <Group component="nav" aria-label={label} gap="xs">
      {tabs.map((tab) => {
        const active = pathname.startsWith(tab.to);
        return (
          <Button
            key={tab.to}
            component={Link}
            to={tab.to}
            variant={active ? 'filled' : 'default'}
            aria-current={active ? 'page' : undefined}
            leftSection={<tab.icon size={16} aria-hidden="true" />}
          >
            {tab.label}
          </Button>
        );
      })}
    </Group>
  );
}
