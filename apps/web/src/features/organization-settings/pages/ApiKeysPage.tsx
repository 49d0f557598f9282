import { Alert, Button, Card, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import {
  can,
  MAX_API_KEYS_PER_ORGANIZATION,
  type ApiKey,
  type ApiKeyCreated,
} from '@portolan/contract';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { confirmModal } from '../../../lib/confirm';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast, toastFailure } from '../../../lib/toasts';
import { apiKeysQueryOptions, useRevokeApiKey } from '../api/api-keys-api';
import { organizationClientsQueryOptions, useOrganization } from '../api/org-settings-api';
import { ApiKeyCreatedModal } from '../components/ApiKeyCreatedModal';
import { ApiKeyList } from '../components/ApiKeyList';
import { CreateApiKeyModal } from '../components/CreateApiKeyModal';

export const ApiKeysMessages = {
  revoked: (name: string) => `The key “${name}” is revoked: it no longer works.`,
  alreadyRevoked: (name: string) => `The key “${name}” was already revoked.`,
} as const;

/** What a key is for, said above the list and in its empty state. */
const PURPOSE =
  'A key lets a system of yours (an ERP, a script, a module’s back end) call the Portolan API for the organization without a person’s password. It does only what its permissions allow.';

function NoKeys({ onCreate }: { onCreate: () => void }) {
  return (
    <Card padding="xl" withBorder>
      <EmptyState variant="light" icon={<IconKey size={36} stroke={1.5} aria-hidden="true" />}>
        <EmptyState.Title order={3}>No API keys yet</EmptyState.Title>
        <EmptyState.Description maw={520}>
          Create a key for each system that calls the API, with only the permissions it needs: you
          can then revoke one without stopping the others.
        </EmptyState.Description>
        <EmptyState.Actions>
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onCreate}>
            Create API key
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}

/**
 * api-keys (API keys, for OWNERs and ADMINs: `organization.api_keys.manage`): the organization's
 * keys with what each may do and when it was last used; create one (shown once), revoke one.
 */
export function ApiKeysPage() {
  const { orgId, query: org, role } = useOrganization();
  const allowed = can({ orgRole: role }, 'organization.api_keys.manage');
  const keys = useQuery({ ...apiKeysQueryOptions(orgId), enabled: allowed });
  // Names of the workspaces some keys are limited to (the list has their ids).
  const limited = keys.data?.results.some((k) => k.workspace_ids !== null) ?? false;
  const workspaces = useQuery({
    ...organizationClientsQueryOptions(orgId, 'all', ''),
    enabled: allowed && limited,
  });
  const workspaceNames = useMemo(
    () => new Map((workspaces.data?.results ?? []).map((w) => [w.id, w.name])),
    [workspaces.data],
  );
  const revoke = useRevokeApiKey(orgId);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  if (org.data && !allowed) {
    return (
      <Alert color="orange" variant="light" title="Only owners and admins manage API keys">
        Ask an owner or an admin of {org.data.name} for a key.
      </Alert>
    );
  }

  const onRevoke = async (apiKey: ApiKey) => {
    const ok = await confirmModal({
      title: `Revoke “${apiKey.name}”?`,
      content: `Every system using ${apiKey.hint}… is refused from now on. This cannot be undone: a new key would have to be created and given to them.`,
      confirmLabel: 'Revoke key',
      danger: true,
    });
    if (!ok) return;
    try {
      await revoke.mutateAsync(apiKey);
      toast.success(ApiKeysMessages.revoked(apiKey.name));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        toast.info(ApiKeysMessages.alreadyRevoked(apiKey.name));
        return;
      }
      toastFailure(error);
    }
  };

  const list = keys.data?.results ?? [];
  const atLimit = list.length >= MAX_API_KEYS_PER_ORGANIZATION;

  return (
    <Stack gap="md" component="section" aria-labelledby="org-api-keys-title">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} maw={720}>
          <Title order={2} fz="h3" id="org-api-keys-title">
            API keys
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
            Create API key
          </Button>
        )}
      </Group>
      {atLimit && (
        <Text size="sm" role="status">
          The organization holds {MAX_API_KEYS_PER_ORGANIZATION} keys, the most it may: revoke one
          it no longer uses to create another.
        </Text>
      )}

      {(org.isPending || keys.isPending) && !keys.isError && (
        <ListSkeleton label="Loading the API keys" rows={3} height={56} />
      )}
      {keys.isError && <QueryRetryAlert title="The API keys could not be loaded" query={keys} />}
      {keys.data && list.length === 0 && <NoKeys onCreate={() => setCreating(true)} />}
      {list.length > 0 && (
        <ApiKeyList
          keys={list}
          workspaceNames={workspaceNames}
          now={keys.dataUpdatedAt}
          onRevoke={(apiKey) => void onRevoke(apiKey)}
        />
      )}

      <CreateApiKeyModal
        opened={creating}
        onClose={() => setCreating(false)}
        orgId={orgId}
        orgRole={role}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <ApiKeyCreatedModal created={created} onDone={() => setCreated(null)} />
    </Stack>
  );
}
