import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { MODULE_NAMES, type ModuleCode } from '@portolan/contract';
import { IconExternalLink } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { loadFailureReason } from '../../../lib/api';
import { RetryAlert } from '../../../lib/retry-alert';
import { useLaunchModule } from '../api/launch-api';

/** The page was reached with the browser's Back button (from the module's app). */
const cameBack = () =>
  typeof performance.getEntriesByType === 'function' &&
  (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)
    ?.type === 'back_forward';

/**
 * The home of a module whose own app is configured (MODULE_URLS, issue 21 item 4): asks for a
 * launch token and opens the app with it by a form POST (the token never goes in a URL, so no
 * history, log or Referer keeps it). Back from the app, it waits for a click instead of leaving
 * again at once.
 */
export function ModuleLauncher({ clientId, module }: { clientId: string; module: ModuleCode }) {
  const name = MODULE_NAMES[module];
  const launch = useLaunchModule(clientId, module);
  const { mutate, reset, data } = launch;
  const form = useRef<HTMLFormElement>(null);
  const started = useRef(false);

  useEffect(() => {
    // Once per visit: React's strict mode runs effects twice.
    if (started.current || cameBack()) return;
    started.current = true;
    mutate();
  }, [mutate]);

  const posted = useRef<string | null>(null);
  useEffect(() => {
    // Each token is posted once (a module may refuse a token it has seen).
    if (!data?.url || posted.current === data.token) return;
    posted.current = data.token;
    form.current?.submit();
  }, [data]);

  useEffect(() => {
    // Restored from the back/forward cache after the POST: offer to open it again.
    const restored = (event: PageTransitionEvent) => event.persisted && reset();
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, [reset]);

  const open = () => mutate();
  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>{name}</Title>
      {launch.isPending || data?.url ? (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>Opening {name}…</Text>
        </Group>
      ) : launch.isError ? (
        <RetryAlert title={`${name} could not be opened`} onRetry={open}>
          {loadFailureReason(launch.error)}
        </RetryAlert>
      ) : data ? (
        <Alert color="red" variant="light" role="alert" title={`${name} is not set up here`}>
          Portolan has no address for the {name} app. Ask your administrator to configure it.
        </Alert>
      ) : (
        <Button
          w="fit-content"
          leftSection={<IconExternalLink size={18} aria-hidden="true" />}
          onClick={open}
        >
          Open {name}
        </Button>
      )}
      {data?.url && (
        <form ref={form} method="post" action={data.url} hidden>
          <input type="hidden" name="token" value={data.token} />
        </form>
      )}
    </Stack>
  );
}
