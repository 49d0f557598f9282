import { Alert, Text } from '@mantine/core';
import type { ApiKeyCreated } from '@portolan/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { SecretOnceModal } from './SecretOnceModal';

/**
 * The key just made, shown this once (the server keeps only its hash): in a field to select or
 * copy, with a warning that it cannot be shown again. Closed by Done (or Escape, or ×).
 */
export function ApiKeyCreatedModal({
  created,
  onDone,
}: {
  /** The key just made; null while there is none to show. */
  created: ApiKeyCreated | null;
  onDone: () => void;
}) {
  return (
    <SecretOnceModal
      opened={created !== null}
      title="Your new API key"
      onDone={onDone}
      label={`API key “${created?.name ?? ''}”`}
      value={created?.key ?? ''}
      copyLabel="Copy key"
      announcement="The API key is copied to the clipboard."
      footer={
        <Text size="xs" c="dimmed">
          Send it as <code>Authorization: Bearer {created?.hint}…</code> with each request.
        </Text>
      }
    >
      <Alert
        color="orange"
        variant="light"
        title="Copy the key now: it will not be shown again"
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      >
        Portolan keeps only a fingerprint of it. Store it where your system keeps its secrets; if it
        is lost, revoke it and create another.
      </Alert>
    </SecretOnceModal>
  );
}
