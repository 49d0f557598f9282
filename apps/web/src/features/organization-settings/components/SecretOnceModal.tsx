import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import type { ReactNode } from 'react';
import { CopyTextButton } from '../../../lib/copy-button';

/**
 * A secret on screen (an API key just made, a webhook signing secret): what to do with it
 * (`children`), the secret in a field to select or copy, Copy and Done. Closed by Done (or Escape,
 * or ×); never by a click beside it, which would lose the secret before it is copied.
 */
export function SecretOnceModal({
  opened,
  title,
  onDone,
  label,
  description,
  value,
  copyLabel,
  announcement,
  children,
  footer,
}: {
  opened: boolean;
  title: string;
  onDone: () => void;
  /** The field's label, and a line under it. */
  label: string;
  description?: ReactNode;
  value: string;
  copyLabel: string;
  /** What a screen reader hears once it is copied. */
  announcement: string;
  /** The advice above the field. */
  children: ReactNode;
  /** A line under the buttons. */
  footer?: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onDone}
      title={title}
      size="lg"
      centered
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {opened && (
        <Stack gap="md">
          {children}
          {/* A text area, so that a phone shows the whole secret, over two lines. */}
          <Textarea
            label={label}
            description={description}
            value={value}
            readOnly
            rows={2}
            onFocus={(event) => event.currentTarget.select()}
            styles={{
              input: {
                fontFamily: 'var(--mantine-font-family-monospace)',
                wordBreak: 'break-all',
                resize: 'none',
                // As tall as the secret: one line on a desktop (two where this is not supported).
                fieldSizing: 'content',
              },
            }}
          />
          <Group justify="space-between" gap="sm">
            <CopyTextButton
              value={value}
              label={copyLabel}
              announcement={announcement}
              variant="default"
            />
            <Button onClick={onDone}>Done</Button>
          </Group>
          {footer}
        </Stack>
      )}
    </Modal>
  );
}
