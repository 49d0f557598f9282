import { Avatar, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { can } from '@portolan/contract';
import {
  IconActivity,
  IconBuilding,
  IconFileZip,
  IconKey,
  IconReceipt2,
  IconLayoutGrid,
  IconShieldLock,
  IconUserShare,
  IconUsers,
  IconWebhook,
} from '@tabler/icons-react';
import { Outlet } from 'react-router';
import { usePublicConfig } from '../../../lib/config';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { rulesAndRolesTabs, SettingsNav, type SettingsTab } from '../../../lib/settings-layout';
import { useOrganization } from '../api/org-settings-api';

/**
 * ps/organization-settings/:orgId: the organization's name and a sub-navigation (Information,
 * Workspaces, Internal and External users, Activities, Security, Data export, API keys, Webhooks,
 * Billing) above the page. Each tab only for those who may use it.
 */
export function OrganizationSettingsLayout() {
  const { orgId, query, role } = useOrganization();
  const billingOn = usePublicConfig().data?.features.billing === true;
  const base = `/ps/organization-settings/${encodeURIComponent(orgId)}`;
  const tabs: SettingsTab[] = [
    { to: `${base}/detail`, label: 'Information', icon: IconBuilding, shown: true },
    { to: `${base}/clients`, label: 'Workspaces', icon: IconLayoutGrid, shown: true },
    {
      to: `${base}/users/internal`,
      label: 'Internal users',
      icon: IconUsers,
      shown: can({ orgRole: role }, 'organization.members.read'),
    },
    {
      to: `${base}/users/external`,
      label: 'External users',
      icon: IconUserShare,
      shown: can({ orgRole: role }, 'organization.members.read'),
    },
    {
      to: `${base}/activities`,
      label: 'Activities',
      icon: IconActivity,
      shown: can({ orgRole: role }, 'organization.activities.read'),
    },
    ...rulesAndRolesTabs('organization', orgId).map((tab) => ({
      ...tab,
      shown: can({ orgRole: role }, 'organization.roles.read'),
    })),
    {
      to: `${base}/security`,
      label: 'Security',
      icon: IconShieldLock,
      shown: can({ orgRole: role }, 'organization.security.manage'),
    },
    {
      to: `${base}/data-export`,
      label: 'Data export',
      icon: IconFileZip,
      shown: can({ orgRole: role }, 'organization.data.export'),
    },
    {
      to: `${base}/api-keys`,
      label: 'API keys',
      icon: IconKey,
      shown: can({ orgRole: role }, 'organization.api_keys.manage'),
    },
    {
      to: `${base}/webhooks`,
      label: 'Webhooks',
      icon: IconWebhook,
      shown: can({ orgRole: role }, 'organization.webhooks.manage'),
    },
    // The billing pages (app/router.tsx places them under billing/), when the build sells plans.
    {
      to: `${base}/billing`,
      label: 'Billing',
      icon: IconReceipt2,
      shown: billingOn && can({ orgRole: role }, 'organization.billing'),
    },
  ].filter((t) => t.shown);

  return (
    <Stack gap="lg" maw={1200}>
      <Group gap="md" wrap="nowrap">
        {query.data ? (
          <>
            <Avatar src={query.data.logo} alt="" size={48} radius="md" color="ocean">
              {query.data.name.slice(0, 1).toUpperCase()}
            </Avatar>
            <Stack gap={0}>
              <Title order={1} fz={{ base: 'h2', sm: 'h1' }}>
                {query.data.name}
              </Title>
              <Text c="dimmed" size="sm">
                Organization settings{query.data.role ? ` · you are ${query.data.role.name}` : ''}
              </Text>
            </Stack>
          </>
        ) : (
          <Stack gap={6}>
            <Title order={1} fz={{ base: 'h2', sm: 'h1' }}>
              Organization settings
            </Title>
            {query.isPending && <Skeleton height={16} width={200} aria-hidden="true" />}
          </Stack>
        )}
      </Group>

      {query.isError ? (
        <QueryRetryAlert title="The organization could not be loaded" query={query} />
      ) : (
        <>
          <SettingsNav label="Organization settings" tabs={tabs} />
          <Outlet />
        </>
      )}
    </Stack>
  );
}
