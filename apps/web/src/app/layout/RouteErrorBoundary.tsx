import { Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { BRAND, Messages } from '@portolan/contract';
import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { showNewerVersionToast } from '../../lib/toasts';
import { LogoMark } from './Logo';

/** True for the errors browsers raise when a lazily loaded chunk cannot be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|module script failed|importing a module script|error loading dynamically imported|failed to fetch dynamically|chunk/i.test(
    `${error.name} ${error.message}`,
  );
}

/** The last line of defence: a page that failed to load or render. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);

  useEffect(() => {
    if (chunk) showNewerVersionToast();
    else console.error(error);
  }, [chunk, error]);

  useEffect(() => {
    document.title = `Something went wrong | ${BRAND}`;
  }, []);

  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = chunk
    ? 'A newer version is available'
    : notFound
      ? 'Page not found'
      : 'Something went wrong';
  const text = chunk
    ? Messages.newerVersion
    : notFound
      ? 'The page you asked for does not exist.'
      : 'This page could not be shown. Reload the page, or go back to the dashboard and try again.';

  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="md" radius="lg" p="xl" maw={480} w="100%">
        <Stack align="center" gap="md" ta="center">
          <LogoMark size={48} />
          <Title order={1} fz="h2">
            {title}
          </Title>
          <Text c="dimmed">{text}</Text>
          <Group justify="center">
            <Button onClick={() => window.location.reload()}>Reload</Button>
            <Button component="a" href="/" variant="default">
              Go to the dashboard
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
