import { Alert, Card, Group, Skeleton, Stack, Switch, Text } from '@mantine/core';
import type { ClientModule } from '@portolan/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage, loadFailureReason } from './api';
import { RetryAlert } from './retry-alert';
import {
  clientModulesKey,
  clientModulesQueryOptions,
  invalidateTenancy,
  setClientModule,
} from './tenant-api';
import { toast } from './toasts';

function switchProblem(error: unknown): string {
  if (error instanceof ApiError && (error.status === 0 || error.status >= 500))
    return 'The module could not be switched right now. Please try again in a moment.';
  if (error instanceof ApiError && error.status === 403)
    return 'Your role does not allow switching modules. Ask an owner, an admin or a manager.';
  return errorMessage(error);
}

/**
 * The modules of a workspace, each with a switch (PATCH /v1/clients/{id}/modules/{code}/
 * {enabled}). Without `canSwitch` the switches show the state but cannot be used.
 */
export function ModuleSwitches({ clientId, canSwitch }: { clientId: string; canSwitch: boolean }) {
  const queryClient = useQueryClient();
  const modules = useQuery(clientModulesQueryOptions(clientId));
  const [problem, setProblem] = useState<string | null>(null);
  const toggle = useMutation({
    mutationFn: ({ module, enabled }: { module: string; enabled: boolean }) =>
      setClientModule(clientId, module, enabled),
    onSuccess: (row) => {
      queryClient.setQueryData<ClientModule[]>(clientModulesKey(clientId), (rows) =>
        rows?.map((r) => (r.module === row.module ? row : r)),
      );
      void queryClient.invalidateQueries({ queryKey: ['clients', clientId], exact: true });
      void invalidateTenancy(queryClient);
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
      toast.success(`${row.name} is now ${row.enabled ? 'on' : 'off'}.`);
    },
    onError: (error) => setProblem(switchProblem(error)),
  });

  if (modules.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the modules">
        <Skeleton height={56} radius="md" />
        <Skeleton height={56} radius="md" />
      </Stack>
    );
  }
  if (modules.isError) {
    return (
      <RetryAlert title="The modules could not be loaded" onRetry={() => void modules.refetch()}>
        {loadFailureReason(modules.error)}
      </RetryAlert>
    );
  }
  if (modules.data.length === 0) {
    return <Text c="dimmed">This workspace has no module yet.</Text>;
  }

  return (
    <Stack gap="sm">
      {problem && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          withCloseButton
          onClose={() => setProblem(null)}
          closeButtonLabel="Dismiss"
        >
          {problem}
        </Alert>
      )}
      {!canSwitch && (
        <Text size="sm" c="dimmed">
          Only an owner, an admin or a manager of this workspace can switch its modules.
        </Text>
      )}
      {modules.data.map((m) => {
        const busy = toggle.isPending && toggle.variables?.module === m.module;
        return (
          <Card key={m.module} withBorder padding="md" radius="md">
            <Group justify="space-between" wrap="nowrap">
              <Stack gap={2}>
                <Text fw={600}>{m.name}</Text>
                <Text size="xs" c="dimmed">
                  Module {m.module} · {m.enabled ? 'On' : 'Off'}
                </Text>
              </Stack>
              <Switch
                size="md"
                checked={m.enabled}
                disabled={!canSwitch || busy}
                aria-label={`${m.name} module`}
                onChange={(event) => {
                  setProblem(null);
                  toggle.mutate({ module: m.module, enabled: event.currentTarget.checked });
                }}
              />
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}
