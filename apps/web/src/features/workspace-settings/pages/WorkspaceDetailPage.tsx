import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { can, type Role } from '@portolan/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import {
  clientKey,
  clientQueryOptions,
  invalidateTenancy,
  patchClient,
} from '../../../lib/tenant-api';
import { WorkspaceForm } from '../../../lib/workspace-form';
import type { ClientUpdate } from '@portolan/contract';
import { WorkspaceManagersForm } from '../components/WorkspaceManagersForm';

/** client-detail: name, logo and dashboard button colour (PATCH /v1/clients/{id}/). */
export function WorkspaceDetailPage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const client = useQuery(clientQueryOptions(id));
  const save = useMutation({
    mutationFn: (body: ClientUpdate) => patchClient(id, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(clientKey(id), saved);
      void invalidateTenancy(queryClient, saved.organization);
    },
  });
  const canEdit = can(
    { orgRole: null, workspaceRole: (client.data?.role?.key ?? null) as Role | null },
    'client.update',
  );

  return (
    <Stack gap="md" aria-labelledby="ws-detail-title">
      <Title order={2} fz="h3" id="ws-detail-title">
        Information
      </Title>
      {client.isPending && (
        <Stack gap="md" aria-busy="true" aria-label="Loading the workspace">
          <Skeleton height={56} />
          <Skeleton height={72} />
        </Stack>
      )}
      {client.data && !canEdit && (
        <Text size="sm" c="dimmed">
          Only an owner or an admin of this workspace can change it.
        </Text>
      )}
      {client.data && (
        <WorkspaceForm
          key={client.data.id}
          client={client.data}
          canEdit={canEdit}
          save={(body) => save.mutateAsync(body)}
        />
      )}
      {client.data && (
        <WorkspaceManagersForm
          key={`managers-${client.data.id}`}
          client={client.data}
          canEdit={canEdit}
          save={(body) => save.mutateAsync(body)}
        />
      )}
    </Stack>
  );
}
