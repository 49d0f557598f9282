import { Button, Group } from '@mantine/core';
import { IconShieldCheck, IconUserShield, type Icon } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { accessRulesPath, customRolesPath, type RuleLevel } from './permission-paths';

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

/**
 * The Access rules and Custom roles tabs of a settings area (the organization's or one
 * workspace's), for the layouts to add for a role that may read them (`organization.roles.read`,
 * `client.roles.read`).
 */
export function rulesAndRolesTabs(level: RuleLevel, id: string): SettingsTab[] {
  return [
    { to: accessRulesPath(level, id), label: 'Access rules', icon: IconShieldCheck },
    { to: customRolesPath(level, id), label: 'Custom roles', icon: IconUserShield },
  ];
}
