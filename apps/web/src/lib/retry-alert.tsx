import { Alert, Anchor } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

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
