import { ActionIcon, Button, Menu, Text, Tooltip } from '@mantine/core';
import {
  showsOrganizationGear,
  showsWorkspaceGear,
  type OrgRole,
  type Role,
} from '@portolan/contract';
import {
  IconBuildingCog,
  IconBuildingPlus,
  IconCheck,
  IconChevronDown,
  IconLayoutGrid,
  IconSettings,
  IconSwitchHorizontal,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useAuthStore, type OrgListEntry } from '../../lib/auth-store';
import {
  enabledModules,
  moduleName,
  switchChannel,
  switchOrganization,
  switchWorkspace,
  useWorkspaceAccess,
} from '../../lib/tenancy';

const enc = encodeURIComponent;

export const orgSettingsPath = (orgId: string) => `/ps/organization-settings/${enc(orgId)}`;
export const clientSettingsPath = (clientId: string) => `/ps/client-settings/${enc(clientId)}`;

function orgGear(entry: OrgListEntry) {
  return showsOrganizationGear({
    has_access: entry.organization.has_access ?? true,
    role: (entry.organization.role.key as Role) ?? null,
  });
}

/**
 * Where a header control is drawn: in the header itself (wide screens), or full width in the
 * sidebar's drawer (phones, where the header keeps only the logo, the bell and the account menu).
 */
export interface PlacementProps {
  inDrawer?: boolean;
}

/** The channel dropdown (spec §2): the enabled modules of the current workspace. */
export function ChannelMenu({ inDrawer = false }: PlacementProps) {
  const client = useAuthStore((s) => s.current_client);
  const channels = useAuthStore((s) => s.ps_current_channel);
  if (!client) return null;
  const modules = enabledModules(client.modules);
  const channel = channels[client.id];
  const label = channel && modules.includes(channel as never) ? moduleName(channel) : 'No module';

  return (
    <Menu position="bottom-start" shadow="md" width={220} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="dark"
          size="sm"
          px={8}
          fullWidth={inDrawer}
          justify={inDrawer ? 'space-between' : undefined}
          rightSection={<IconChevronDown size={14} aria-hidden="true" />}
          leftSection={<IconLayoutGrid size={16} aria-hidden="true" />}
          aria-label={`Module: ${label}`}
          styles={{
            label: {
              maxWidth: inDrawer ? '100%' : 140,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
            },
          }}
        >
          <Text span size="sm" fw={600} visibleFrom={inDrawer ? undefined : 'md'} inherit>
            {label}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Modules of {client.name}</Menu.Label>
        {modules.length === 0 && <Menu.Item disabled>No module is enabled</Menu.Item>}
        {modules.map((code) => (
          <Menu.Item
            key={code}
            onClick={() => switchChannel(code)}
            aria-current={code === channel ? 'true' : undefined}
            rightSection={code === channel ? <IconCheck size={14} aria-hidden="true" /> : null}
          >
            {moduleName(code)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The workspace dropdown (spec §2, §4): workspaces grouped by organization, in the stored order
 * (the current organization and workspace first); switching to another organization, when there
 * are several (spec §4: saved, the current workspace reset); each organization's settings where the gear rule allows;
 * adding an organization with can_create_client.
 */
export function WorkspaceMenu({ inDrawer = false }: PlacementProps) {
  const list = useAuthStore((s) => s.org.list);
  const client = useAuthStore((s) => s.current_client);
  const currentOrgId = useAuthStore((s) => s.org.current?.id);
  const canCreate = useAuthStore((s) => s.user?.can_create_client ?? false);
  if (list.length === 0 && !canCreate) return null;

  return (
    <Menu
      position="bottom-start"
      shadow="md"
      width={280}
      withInitialFocusPlaceholder={false}
      styles={{ dropdown: { maxHeight: 'calc(100dvh - 80px)', overflowY: 'auto' } }}
    >
      <Menu.Target>
        <Button
          variant="light"
          size="sm"
          px={10}
          fullWidth={inDrawer}
          justify={inDrawer ? 'space-between' : undefined}
          rightSection={<IconChevronDown size={14} aria-hidden="true" />}
          aria-label={`Workspace: ${client?.name ?? 'none chosen'}`}
          styles={{
            label: {
              maxWidth: inDrawer ? '100%' : 160,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
            },
          }}
        >
          {client?.name ?? 'Workspaces'}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {list.map((entry, index) => (
          <div key={entry.organization.id} role="group" aria-label={entry.organization.name}>
            {index > 0 && <Menu.Divider />}
            <Menu.Label>
              {entry.organization.name}
              {entry.organization.id === currentOrgId && ' · current'}
            </Menu.Label>
            {entry.clients.length === 0 && <Menu.Item disabled>No workspace yet</Menu.Item>}
            {entry.clients.map((c) => (
              <Menu.Item
                key={c.id}
                onClick={() => switchWorkspace(c.id)}
                aria-current={c.id === client?.id ? 'true' : undefined}
                rightSection={
                  c.id === client?.id ? <IconCheck size={14} aria-hidden="true" /> : null
                }
              >
                {c.name}
              </Menu.Item>
            ))}
            {list.length > 1 && entry.organization.id !== currentOrgId && (
              <Menu.Item
                onClick={() => switchOrganization(entry.organization.id)}
                leftSection={<IconSwitchHorizontal size={14} aria-hidden="true" />}
              >
                Switch to {entry.organization.name}
              </Menu.Item>
            )}
            {orgGear(entry) && (
              <Menu.Item
                component={Link}
                to={orgSettingsPath(entry.organization.id)}
                leftSection={<IconSettings size={14} aria-hidden="true" />}
                c="dimmed"
              >
                Settings of {entry.organization.name}
              </Menu.Item>
            )}
          </div>
        ))}
        {canCreate && (
          <>
            {list.length > 0 && <Menu.Divider />}
            <Menu.Item
              component={Link}
              to="/ps/organizations/create"
              leftSection={<IconBuildingPlus size={14} aria-hidden="true" />}
            >
              Add an organization
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The settings gears of the current organization and workspace (spec §6). */
export function SettingsGears({ inDrawer = false }: PlacementProps) {
  const client = useAuthStore((s) => s.current_client);
  const current = useAuthStore((s) => s.org.current);
  const list = useAuthStore((s) => s.org.list);
  const access = useWorkspaceAccess(client?.id);
  const entry = list.find((e) => e.organization.id === current?.id);
  const showOrg = entry ? orgGear(entry) : false;
  const showClient =
    access !== null &&
    showsWorkspaceGear({
      orgRole: access.orgRole as OrgRole | null,
      workspaceRole: access.workspaceRole,
    });
  return (
    <>
      {showOrg && entry && (
        <Tooltip label={`Settings of ${entry.organization.name}`}>
          <ActionIcon
            component={Link}
            to={orgSettingsPath(entry.organization.id)}
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Organization settings: ${entry.organization.name}`}
            visibleFrom={inDrawer ? undefined : 'sm'}
          >
            <IconBuildingCog size={20} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      )}
      {showClient && client && (
        <Tooltip label={`Settings of ${client.name}`}>
          <ActionIcon
            component={Link}
            to={clientSettingsPath(client.id)}
            variant="subtle"
            color="ocean"
            size="lg"
            aria-label={`Workspace settings: ${client.name}`}
          >
            <IconSettings size={20} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      )}
    </>
  );
}
