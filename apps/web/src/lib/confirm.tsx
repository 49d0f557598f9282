import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  /** The content: a sentence, or any element. */
  content: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Paints the confirm button red, for destructive actions. */
  danger?: boolean;
}

/**
 * The generic modal (spec §2 Layout): shows content and action buttons and resolves true when
 * the user confirms, false when they cancel or close it.
 */
export function confirmModal({
  title,
  content,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  danger = false,
}: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: boolean) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    modals.openConfirmModal({
      title,
      centered: true,
      children: typeof content === 'string' ? <Text size="sm">{content}</Text> : content,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: danger ? { color: 'red.9' } : undefined,
      closeButtonProps: { 'aria-label': 'Close dialog' },
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}
