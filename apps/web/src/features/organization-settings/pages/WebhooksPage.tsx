import { Alert, Button, Card, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { can, MAX_WEBHOOK_ENDPOINTS } from '@portolan/contract';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { useOrganization } from '../api/org-settings-api';
import { webhooksQueryOptions } from '../api/webhooks-api';
import { CreateWebhookModal } from '../components/CreateWebhookModal';
import { WebhookList } from '../components/WebhookList';
import { WebhookSecretModal, type ShownSecret } from '../components/WebhookSecretModal';

/** What a webhook is for, said above the list and in its empty state. */
const PURPOSE =
  'A webhook tells a system of yours (an ERP, a chat, a module’s back end) what happens in the organization as it happens: each event is sent to its URL as a signed POST request, and tried again for a day if it fails.';

function NoEndpoints({ onCreate }: { onCreate: () => void }) {
  return (
    <Card padding="xl" withBorder>
      <EmptyState variant="light" icon={<IconWebhook size={36} stroke={1.5} aria-hidden="true" />}>
        <EmptyState.Title order={3}>No webhook endpoints yet</EmptyState.Title>
        <EmptyState.Description maw={520}>
          Add the URL of a system that should hear of new members, workspaces, invoices and more,
          and choose which events it receives. Each delivery is signed, so the receiver can check it
          comes from Portolan.
        </EmptyState.Description>
        <EmptyState.Actions>
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onCreate}>
            Add endpoint
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}

/**
 * webhooks (Webhooks, for OWNERs and ADMINs: `organization.webhooks.manage`): the organization's
 * endpoints with their events and whether they work; add one (its secret shown at once). Each
 * endpoint's page (webhooks/:webhookId) edits it and shows its delivery log.
 */
export function WebhooksPage() {
  const { orgId, query: org, role } = useOrganization();
  const allowed = can({ orgRole: role }, 'organization.webhooks.manage');
  const endpoints = useQuery({ ...webhooksQueryOptions(orgId), enabled: allowed });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<ShownSecret | null>(null);

  if (org.data && !allowed) {
    return (
      <Alert color="orange" variant="light" title="Only owners and admins manage webhooks">
        Ask an owner or an admin of {org.data.name} to send events to your system.
      </Alert>
    );
  }

  const list = endpoints.data?.results ?? [];
  const atLimit = list.length >= MAX_WEBHOOK_ENDPOINTS;
  const base = `/ps/organization-settings/${encodeURIComponent(orgId)}/webhooks`;

  return (
    <Stack gap="md" component="section" aria-labelledby="org-webhooks-title">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} maw={720}>
          <Title order={2} fz="h3" id="org-webhooks-title">
            Webhooks
          </Title>
          <Text size="sm" c="dimmed">
            {PURPOSE}
          </Text>
        </Stack>
        {list.length > 0 && (
          <Button
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={() => setCreating(true)}
            disabled={atLimit}
          >
            Add endpoint
          </Button>
        )}
      </Group>
      {atLimit && (
        <Text size="sm" role="status">
          The organization has {MAX_WEBHOOK_ENDPOINTS} endpoints, the most it may: delete one it no
          longer uses to add another.
        </Text>
      )}

      {(org.isPending || endpoints.isPending) && !endpoints.isError && (
        <ListSkeleton label="Loading the webhook endpoints" rows={3} height={56} />
      )}
      {endpoints.isError && (
        <QueryRetryAlert title="The webhook endpoints could not be loaded" query={endpoints} />
      )}
      {endpoints.data && list.length === 0 && <NoEndpoints onCreate={() => setCreating(true)} />}
      {list.length > 0 && (
        <WebhookList
          endpoints={list}
          pathOf={(endpoint) => `${base}/${encodeURIComponent(endpoint.id)}`}
        />
      )}

      <CreateWebhookModal
        opened={creating}
        onClose={() => setCreating(false)}
        orgId={orgId}
        onCreated={(created) => {
          setCreating(false);
          setSecret({ kind: 'created', url: created.url, secret: created.secret });
        }}
      />
      <WebhookSecretModal shown={secret} onDone={() => setSecret(null)} />
    </Stack>
  );
}
