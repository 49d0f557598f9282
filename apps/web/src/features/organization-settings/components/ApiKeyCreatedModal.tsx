import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { ApiKeyCreated } from '@portolan/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CopyTextButton } from '../../../lib/copy-button';

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
    <Modal
      opened={created !== null}
      onClose={onDone}
      title="Your new API key"
      size="lg"
      centered
      // A click beside the dialog must not lose the key before it is copied.
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {created && (
        <Stack gap="md">
          <Alert
            color="orange"
            variant="light"
            title="Copy the key now: it will not be shown again"
            icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          >
            Portolan keeps only a fingerprint of it. Store it where your system keeps its secrets;
            if it is lost, revoke it and create another.
          </Alert>
          {/* A text area, so that a phone shows the whole key, over two lines. */}
          <Textarea
            label={`API key “${created.name}”`}
            value={created.key}
            readOnly
            rows={2}
            onFocus={(event) => event.currentTarget.select()}
            styles={{
              input: {
                fontFamily: 'var(--mantine-font-family-monospace)',
                wordBreak: 'break-all',
                resize: 'none',
                // As tall as the key: one line on a desktop (two where this is not supported).
                fieldSizing: 'content',
              },
            }}
          />
          <Group justify="space-between" gap="sm">
            <CopyTextButton
              value={created.key}
              label="Copy key"
              announcement="The API key is copied to the clipboard."
              variant="default"
            />
            <Button onClick={onDone}>Done</Button>
          </Group>
          <Text size="xs" c="dimmed">
            Send it as <code>Authorization: Bearer {created.hint}…</code> with each request.
          </Text>
        </Stack>
      )}
    </Modal>
  );
}
