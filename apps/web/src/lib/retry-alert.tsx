import { Alert, Anchor } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { loadFailureReason } from './api-error';

/**
 * A failed load, said plainly, with a "try again" link that refetches: every page that loads
 * data shows its failure this way.
 */
export function RetryAlert({
  title,
  children,
  retryLabel = 'Try again',
  onRetry,
}: {
  title?: string;
  children: ReactNode;
  retryLabel?: string;
  onRetry: () => void;
}) {
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      title={title}
      icon={<IconInfoCircle size={18} aria-hidden="true" />}
    >
      {children}{' '}
      <Anchor component="button" type="button" inherit fw={600} onClick={onRetry}>
        {retryLabel}
      </Anchor>
      .
    </Alert>
  );
}

/**
 * The RetryAlert of one failed query: says why it failed (by its kind, never the raw error) and
 * "Try again" refetches it. The usual case of a page's failed load.
 */
export function QueryRetryAlert({
  title,
  query,
}: {
  title: string;
  query: { error: unknown; refetch: () => Promise<unknown> };
}) {
  return (
    <RetryAlert title={title} onRetry={() => void query.refetch()}>
      {loadFailureReason(query.error)}
    </RetryAlert>
  );
}
