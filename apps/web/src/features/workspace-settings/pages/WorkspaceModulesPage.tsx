import { Stack, Text, Title } from '@mantine/core';
import { can, type Role } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ModuleSwitches } from '../../../lib/module-switches';
import { clientQueryOptions } from '../../../lib/tenant-api';

/** client-module (Modules): each module with a switch. */
export function WorkspaceModulesPage() {
  const { id = '' } = useParams();
  const client = useQuery(clientQueryOptions(id));
  const canSwitch = can(
    { orgRole: null, workspaceRole: (client.data?.role?.key ?? null) as Role | null },
    'client.modules.update',
  );
  return (
    <Stack gap="md">
      <Stack gap={2}>
        <Title order={2} fz="h3">
          Modules
        </Title>
        <Text size="sm" c="dimmed">
          Switch each module on or off. Members see only the modules that are on.
        </Text>
      </Stack>
      {client.data && <ModuleSwitches clientId={id} canSwitch={canSwitch} />}
    </Stack>
  );
}
