import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  can,
  DEFAULT_CLIENTS_VIEW_OPTION,
  MODULE_NAMES,
  type Client,
  type ClientsViewOption,
  type ModuleCode,
  type OrgRole,
  type Role,
} from '@portolan/contract';
import {
  IconApps,
  IconCheck,
  IconDots,
  IconLayoutGrid,
  IconList,
  IconPencil,
  IconPlus,
  IconPuzzle,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import { confirmModal } from '../../../lib/confirm';
import { currentUserQueryOptions } from '../../../lib/current-user';
import { formatDate } from '../../../lib/dates';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { useListFilters } from '../../../lib/list-filters';
import { ErrorCode } from '../../../lib/error-codes';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { forgetWorkspace } from '../../../lib/tenancy';
import { toast } from '../../../lib/toasts';
import { STATUS_LABELS } from '../api/constants';
import {
  organizationClientsQueryOptions,
  WORKSPACES_PAGE_SIZE,
  useApproveWorkspace,
  useDeleteWorkspace,
  useOrganization,
  useSaveViewOption,
  type StatusFilter,
} from '../api/org-settings-api';

/** What the caller may do to one workspace (the contract's `can` decides; the server too). */
export function workspaceActions(orgRole: OrgRole | null, client: Client) {
  const actor = { orgRole, workspaceRole: (client.role?.key ?? null) as Role | null };
  const manage = can({ orgRole }, 'organization.clients.manage');
  return {
    edit: can(actor, 'client.update'),
    modules: can(actor, 'client.modules.update'),
    applications: can(actor, 'client.modules.update'),
    approve: manage && !client.active,
    remove: manage,
  };
}

function StatusBadge({ client }: { client: Client }) {
  return client.active ? (
    <Badge color="teal" variant="light" c="dark.7" miw="max-content">
      Active
    </Badge>
  ) : (
    <Badge color="orange" variant="light" c="dark.7" miw="max-content">
      Pending approval
    </Badge>
  );
}

function moduleSummary(client: Client): string {
  const on = client.modules.filter((m) => m.enabled);
  if (on.length === 0) return 'No module on';
  return on.map((m) => MODULE_NAMES[m.module as ModuleCode] ?? m.module).join(', ');
}

interface RowProps {
  client: Client;
  orgId: string;
  orgRole: OrgRole | null;
  onApprove: (client: Client) => void;
  onDelete: (client: Client) => void;
}

/** The actions of one workspace, in a menu (labelled with the workspace's name). */
function WorkspaceMenu({ client, orgId, orgRole, onApprove, onDelete }: RowProps) {
  const allowed = workspaceActions(orgRole, client);
  const base = `/ps/organization-settings/${encodeURIComponent(orgId)}/clients/${encodeURIComponent(client.id)}`;
  if (!Object.values(allowed).some(Boolean)) return null;
  // A menu with no item would be an empty role="menu" (axe aria-required-children).
  const inMenu = allowed.edit || allowed.modules || allowed.applications || allowed.remove;
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      {allowed.approve && (
        <Button
          size="xs"
          color="teal.9"
          leftSection={<IconCheck size={14} aria-hidden="true" />}
          onClick={() => onApprove(client)}
          aria-label={`Approve ${client.name}`}
        >
          Approve
        </Button>
      )}
      {inMenu && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${client.name}`}>
              <IconDots size={18} aria-hidden="true" />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {allowed.edit && (
              <Menu.Item
                component={Link}
                to={`${base}/edit`}
                leftSection={<IconPencil size={14} aria-hidden="true" />}
              >
                Edit
              </Menu.Item>
            )}
            {allowed.modules && (
              <Menu.Item
                component={Link}
                to={`${base}/modules`}
                leftSection={<IconPuzzle size={14} aria-hidden="true" />}
              >
                Modules
              </Menu.Item>
            )}
            {allowed.applications && (
              <Menu.Item
                component={Link}
                to={`${base}/applications`}
                leftSection={<IconApps size={14} aria-hidden="true" />}
              >
                Applications
              </Menu.Item>
            )}
            {allowed.remove && (
              <>
                <Menu.Divider />
                <Menu.Item
                  color="red.9"
                  leftSection={<IconTrash size={14} aria-hidden="true" />}
                  onClick={() => onDelete(client)}
                >
                  Delete
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      )}
    </Group>
  );
}

function ListView(props: Omit<RowProps, 'client'> & { clients: Client[] }) {
  return (
    <Card padding={0} withBorder>
      <Table.ScrollContainer minWidth={340}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
          <Table.Caption>Workspaces of the organization</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Workspace</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th visibleFrom="md">Modules on</Table.Th>
              <Table.Th visibleFrom="sm">Created</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.clients.map((client) => (
              <Table.Tr key={client.id}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <Avatar src={client.logo} alt="" size={32} radius="sm" color="ocean">
                      {client.name.slice(0, 1).toUpperCase()}
                    </Avatar>
                    <Text fw={600}>{client.name}</Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <StatusBadge client={client} />
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <Text size="sm">{moduleSummary(client)}</Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{formatDate(client.created)}</Text>
                </Table.Td>
                <Table.Td>
                  <WorkspaceMenu {...props} client={client} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function GridView(props: Omit<RowProps, 'client'> & { clients: Client[] }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2, lg: 3 }}
      spacing="md"
      component="ul"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label="Workspaces of the organization"
    >
      {props.clients.map((client) => (
        <Card key={client.id} component="li" withBorder padding="lg">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Group gap="sm" wrap="nowrap">
              <Avatar src={client.logo} alt="" size={40} radius="md" color="ocean">
                {client.name.slice(0, 1).toUpperCase()}
              </Avatar>
              <Stack gap={2}>
                <Text fw={600}>{client.name}</Text>
                <Text size="xs" c="dimmed">
                  Created {formatDate(client.created)}
                </Text>
              </Stack>
            </Group>
          </Group>
          <Group mt="md" gap="xs">
            <StatusBadge client={client} />
          </Group>
          <Text size="sm" mt="xs" c="dimmed">
            {moduleSummary(client)}
          </Text>
          <Group mt="md" justify="flex-end">
            <WorkspaceMenu {...props} client={client} />
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function actionProblem(error: unknown, what: string): string {
  if (error instanceof ApiError) {
    if (error.code === ErrorCode.ALREADY_APPROVED) return 'This workspace is already approved.';
    if (error.status === 0 || error.status >= 500)
      return `The workspace could not be ${what} right now. Please try again in a moment.`;
    if (error.code === ErrorCode.PERMISSION_DENIED)
      return 'Your role does not allow this. Ask an owner or an admin of the organization.';
  }
  return errorMessage(error);
}

/** clients (Workspaces): list or grid (remembered), filters, add, approve, delete, and links. */
export function WorkspacesPage() {
  const { orgId, query: org, role } = useOrganization();
  const [status, setStatus] = useState<StatusFilter>('all');
  // Another search or status starts again at the first page.
  const { search, setSearch, key, page, setPage } = useListFilters(status);
  const clients = useQuery(organizationClientsQueryOptions(orgId, status, key, page));
  const pages = Math.ceil((clients.data?.count ?? 0) / WORKSPACES_PAGE_SIZE);
  const me = useQuery(currentUserQueryOptions());
  const saveView = useSaveViewOption();
  const approve = useApproveWorkspace(orgId);
  const remove = useDeleteWorkspace(orgId);
  const view: ClientsViewOption = me.data?.clientsViewOption ?? DEFAULT_CLIENTS_VIEW_OPTION;
  const canAdd = can({ orgRole: role }, 'organization.clients.create');
  const filtered = status !== 'all' || key !== '';

  const onApprove = async (client: Client) => {
    try {
      await approve.mutateAsync(client.id);
      toast.success(`${client.name} is approved: its members can use it now.`);
    } catch (error) {
      toast.error(actionProblem(error, 'approved'));
    }
  };

  const onDelete = async (client: Client) => {
    const ok = await confirmModal({
      title: `Delete ${client.name}?`,
      content: `Its members lose access to ${client.name} and its modules. The name becomes free for a new workspace. This cannot be undone here.`,
      confirmLabel: 'Delete workspace',
      danger: true,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(client.id);
      forgetWorkspace(client.id);
      toast.success(`${client.name} has been deleted.`);
    } catch (error) {
      toast.error(actionProblem(error, 'deleted'));
    }
  };

  const rowProps = {
    orgId,
    orgRole: role,
    onApprove: (c: Client) => void onApprove(c),
    onDelete: (c: Client) => void onDelete(c),
  };
  const list = clients.data?.results ?? [];

  return (
    <Stack gap="md" component="section" aria-labelledby="org-workspaces-title">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} fz="h3" id="org-workspaces-title">
          Workspaces
        </Title>
        {canAdd && org.data && (
          <Button
            component={Link}
            to={`/ps/organizations/${encodeURIComponent(orgId)}/clients/add`}
            leftSection={<IconPlus size={16} aria-hidden="true" />}
          >
            Add a workspace
          </Button>
        )}
      </Group>

      <Group gap="sm" wrap="wrap" align="flex-end">
        <TextInput
          label="Search workspaces"
          placeholder="Name"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          style={{ flex: '1 1 220px' }}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="ws-status-label">
            Status
          </Text>
          <SegmentedControl
            aria-labelledby="ws-status-label"
            value={status}
            onChange={(v) => setStatus(v as StatusFilter)}
            data={(Object.keys(STATUS_LABELS) as StatusFilter[]).map((value) => ({
              value,
              label: STATUS_LABELS[value],
            }))}
          />
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="ws-view-label">
            View
          </Text>
          <SegmentedControl
            aria-labelledby="ws-view-label"
            value={view}
            onChange={(v) => saveView.mutate(v as ClientsViewOption)}
            data={[
              {
                value: 'ClientsListView',
                label: (
                  <Group gap={6} wrap="nowrap">
                    <IconList size={16} aria-hidden="true" />
                    <span>List</span>
                  </Group>
                ),
              },
              {
                value: 'ClientsGridView',
                label: (
                  <Group gap={6} wrap="nowrap">
                    <IconLayoutGrid size={16} aria-hidden="true" />
                    <span>Grid</span>
                  </Group>
                ),
              },
            ]}
          />
        </Stack>
      </Group>

      {clients.isPending && (
        <Stack gap="sm" aria-busy="true" aria-label="Loading the workspaces">
          <Skeleton height={56} radius="md" />
          <Skeleton height={56} radius="md" />
          <Skeleton height={56} radius="md" />
        </Stack>
      )}

      {clients.isError && (
        <QueryRetryAlert title="The workspaces could not be loaded" query={clients} />
      )}

      {clients.data && list.length === 0 && (
        <EmptyListCard
          icon={IconLayoutGrid}
          title={filtered ? 'No workspace matches' : 'No workspace yet'}
          descriptionMaw={520}
        >
          {filtered
            ? 'Try another search or status.'
            : canAdd
              ? 'Add a first workspace: it is where your team works with the modules.'
              : 'When an owner or an admin adds a workspace you belong to, it shows up here.'}
        </EmptyListCard>
      )}

      {list.length > 0 &&
        (view === 'ClientsGridView' ? (
          <GridView {...rowProps} clients={list} />
        ) : (
          <ListView {...rowProps} clients={list} />
        ))}
      <PagePagination total={pages} page={page} onChange={setPage} />
    </Stack>
  );
}
