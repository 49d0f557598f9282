import { Button, Card, EmptyState, Group } from '@mantine/core';
import { effectiveWorkspaceRole } from '@portolan/contract';
import { IconPuzzle } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store';
import { useWorkspaceAccess, workspaceDashboardPath } from '../../../lib/tenancy';

/** `ps/:client_id?/no-module`: the workspace has no enabled module (spec §2, §6). */
export function NoModulePage() {
  const params = useParams();
  const currentId = useAuthStore((s) => s.current_client?.id);
  const clientId = params.client_id ?? currentId;
  const access = useWorkspaceAccess(clientId);
  const role = access
    ? effectiveWorkspaceRole({ orgRole: access.orgRole, workspaceRole: access.workspaceRole })
    : null;
  const manages = role === 'OWNER' || role === 'ADMIN';

  return (
    <Card padding="xl" maw={960}>
      <EmptyState icon={<IconPuzzle size={36} stroke={1.5} aria-hidden="true" />} variant="light">
        <EmptyState.Title order={1} fz="h2">
          No module is active{access ? ` in ${access.name}` : ''}
        </EmptyState.Title>
        <EmptyState.Description maw={560}>
          {manages
            ? 'Switch a module on for this workspace, and its home opens from the channel menu.'
            : 'Ask an owner or an administrator of this workspace to switch a module on.'}
        </EmptyState.Description>
        <Group justify="center" mt="md">
          {manages && clientId && (
            <Button
              component={Link}
              to={`/ps/client-settings/${encodeURIComponent(clientId)}/client-module`}
            >
              Manage modules
            </Button>
          )}
          <Button component={Link} to={workspaceDashboardPath(clientId)} variant="default">
            Go to the dashboard
          </Button>
        </Group>
      </EmptyState>
    </Card>
  );
}
