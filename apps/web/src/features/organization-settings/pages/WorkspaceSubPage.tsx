import { Anchor, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { Client, Role } from '@portolan/contract';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { clientQueryOptions } from '../../../lib/tenant-api';
import { useOrganization } from '../api/org-settings-api';
import type { OrgRole } from '@portolan/contract';

export interface WorkspaceContext {
  orgId: string;
  orgRole: OrgRole | null;
  client: Client;
  actor: { orgRole: OrgRole | null; workspaceRole: Role | null };
}

/**
 * The frame of a workspace's page inside the organization settings (edit, modules,
 * applications): loads the workspace (GET /v1/clients/{id}/), a way back, the title.
 */
export function WorkspaceSubPage({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: (ctx: WorkspaceContext) => ReactNode;
}) {
  const { clientId = '' } = useParams();
  const { orgId, role } = useOrganization();
  const client = useQuery(clientQueryOptions(clientId));
  const back = `/ps/organization-settings/${encodeURIComponent(orgId)}/clients`;

  return (
    <Card padding="xl" component="section" aria-labelledby="ws-sub-title">
      <Stack gap="md">
        <Anchor component={Link} to={back} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} aria-hidden="true" />
            All workspaces
          </Group>
        </Anchor>
        <Stack gap={2}>
          <Title order={2} fz="h3" id="ws-sub-title">
            {client.data ? `${title}: ${client.data.name}` : title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        {client.isPending && (
          <Stack gap="sm" aria-busy="true" aria-label="Loading the workspace">
            <Skeleton height={56} />
            <Skeleton height={56} />
          </Stack>
        )}
        {client.isError && (
          <QueryRetryAlert title="The workspace could not be loaded" query={client} />
        )}
        {client.data &&
          children({
            orgId,
            orgRole: role,
            client: client.data,
            actor: { orgRole: role, workspaceRole: (client.data.role?.key ?? null) as Role | null },
          })}
      </Stack>
    </Card>
  );
}
