import { Alert, Group, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { releaseNoteStatusQueryOptions } from '../api/status-api';

/**
 * The management pages' content for platform administrators only (the server decides anyway);
 * anyone else is told who may, instead of a form the server would refuse.
 */
export function PlatformAdminOnly({ children }: { children: ReactNode }) {
  const status = useQuery(releaseNoteStatusQueryOptions());
  if (status.isError)
    return <QueryRetryAlert title="Your access could not be checked" query={status} />;
  if (!status.data)
    return (
      <Group justify="center" p="xl">
        <Loader size="sm" aria-label="Checking your access" />
      </Group>
    );
  if (!status.data.is_platform_admin)
    return (
      <Alert color="orange" variant="light" title="Platform administrators only">
        Only platform administrators manage release notes. Everyone reads them from the header’s
        Release notes button.
      </Alert>
    );
  return <>{children}</>;
}
