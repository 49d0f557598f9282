import { Badge, Card, Group, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { APP_PROFILE_NAMES, can, type AppProfile } from '@portolan/contract';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { ProblemAlert } from '../../../lib/form-parts';
import { ApiError, errorMessage, loadFailureReason } from '../../../lib/api';
import { ErrorCode } from '../../../lib/error-codes';
import { RetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import { applicationQueryOptions, useSetApplication } from '../api/org-settings-api';
import { WorkspaceSubPage, type WorkspaceContext } from './WorkspaceSubPage';

/** Readable names of the app profiles. */
export const APP_LABELS: Record<AppProfile, string> = {
  mwrw: 'MAP Watcher',
  matrix: 'Matrix',
  data_central: 'Data Central',
  precise_financial: 'Precise Financial',
  transit: 'Transit',
  skuflex: 'SKUFlex',
};

function problemOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === ErrorCode.LAST_ENABLED_MODULE)
      return 'This is the last application with a module on: switch another one on first.';
    if (error.status === 0 || error.status >= 500)
      return 'The application could not be switched right now. Please try again in a moment.';
  }
  return errorMessage(error);
}

function Applications({ orgId, client, actor }: WorkspaceContext) {
  const canSwitch = can(actor, 'client.modules.update');
  const apps = useQueries({
    queries: APP_PROFILE_NAMES.map((app) => applicationQueryOptions(orgId, client.id, app)),
  });
  const set = useSetApplication(orgId, client.id);
  const [problem, setProblem] = useState<string | null>(null);

  const failed = apps.find((a) => a.isError);
  if (failed) {
    return (
      <RetryAlert
        title="The applications could not be loaded"
        onRetry={() => apps.forEach((a) => void a.refetch())}
      >
        {loadFailureReason(failed.error)}
      </RetryAlert>
    );
  }

  return (
    <Stack gap="sm">
      <ProblemAlert>{problem}</ProblemAlert>
      {APP_PROFILE_NAMES.map((app, i) => {
        const data = apps[i]?.data;
        if (!data) return <Skeleton key={app} height={72} radius="md" aria-hidden="true" />;
        return (
          <Card key={app} withBorder padding="md" radius="md">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={6}>
                <Text fw={600}>{APP_LABELS[app]}</Text>
                <Group gap={6}>
                  {data.modules.map((m) => (
                    <Badge
                      key={m.module}
                      variant="light"
                      color={m.enabled ? 'teal' : 'gray'}
                      c="dark.7"
                    >
                      {m.name}: {m.enabled ? 'on' : 'off'}
                    </Badge>
                  ))}
                </Group>
              </Stack>
              <Switch
                size="md"
                checked={data.enabled}
                disabled={!canSwitch || (set.isPending && set.variables?.app === app)}
                aria-label={`${APP_LABELS[app]} application`}
                onChange={(event) => {
                  setProblem(null);
                  const enabled = event.currentTarget.checked;
                  set.mutate(
                    { app, enabled },
                    {
                      onSuccess: () =>
                        toast.success(`${APP_LABELS[app]} is now ${enabled ? 'on' : 'off'}.`),
                      onError: (error) => setProblem(problemOf(error)),
                    },
                  );
                }}
              />
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}

/** clients/:clientId/applications: each application (app profile) on or off at once. */
export function WorkspaceApplicationsPage() {
  return (
    <WorkspaceSubPage
      title="Applications"
      description="An application switches all its modules at once. A workspace keeps at least one on."
    >
      {(ctx) => <Applications {...ctx} />}
    </WorkspaceSubPage>
  );
}
