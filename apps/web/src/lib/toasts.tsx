import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Messages, TOAST_DURATION_MS } from '@portolan/contract';
import { errorMessage } from './api-error';
import { isStepUpRequired } from './step-up';

/** Fixed ids: Mantine ignores a `show` whose id is already displayed, so these never stack. */
export const ToastId = {
  serverError: 'toast-server-error',
  networkError: 'toast-network-error',
  newerVersion: 'toast-newer-version',
} as const;

const closeButtonProps = { 'aria-label': 'Dismiss notification' };

function reloadPage() {
  window.location.reload();
}

function ActionToast({
  id,
  text,
  withDismiss,
}: {
  id: string;
  text: string;
  withDismiss: boolean;
}) {
  return (
    <Stack gap="xs">
      <Text size="sm">{text}</Text>
      <Group gap="xs" justify="flex-end">
        {withDismiss && (
          <Button size="xs" variant="default" onClick={() => notifications.hide(id)}>
            Dismiss
          </Button>
        )}
        <Button size="xs" onClick={reloadPage}>
          Reload
        </Button>
      </Group>
    </Stack>
  );
}

/** A toast that stays until the user acts on it; shown once until dismissed. */
function showPersistent(id: string, text: string, withDismiss: boolean, color: string) {
  notifications.show({
    id,
    color,
    position: 'top-center',
    autoClose: false,
    withCloseButton: !withDismiss,
    closeButtonProps,
    message: <ActionToast id={id} text={text} withDismiss={withDismiss} />,
  });
}

/** §8: 500 or higher. */
export function showServerErrorToast(): void {
  showPersistent(ToastId.serverError, Messages.serverError, true, 'red');
}

/** §8: the request never got an answer. */
export function showNetworkErrorToast(): void {
  showPersistent(ToastId.networkError, Messages.networkError, true, 'orange');
}

export function hideNetworkErrorToast(): void {
  notifications.hide(ToastId.networkError);
}

/** §8: a page chunk failed to load, most likely because a newer version was deployed. */
export function showNewerVersionToast(): void {
  showPersistent(ToastId.newerVersion, Messages.newerVersion, false, 'blue');
}

/** A short, stable hash of a text (FNV-1a, base 36), for notification ids. */
function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

type ToastKind = 'success' | 'error' | 'info';

const toastColor: Record<ToastKind, string> = { success: 'teal', error: 'red', info: 'blue' };

/**
 * The id of a generic toast: the same kind and text give the same id, and Mantine ignores a
 * `show` whose id is already on screen (or queued), so a repeated message never stacks.
 */
export function toastId(kind: ToastKind, message: string, title?: string): string {
  return `toast-${kind}-${textHash(`${title ?? ''}\n${message}`)}`;
}

function showGeneric(kind: ToastKind, message: string, title?: string): string {
  return notifications.show({
    id: toastId(kind, message, title),
    color: toastColor[kind],
    title,
    message,
    position: 'top-center',
    autoClose: TOAST_DURATION_MS,
    closeButtonProps,
  });
}

/** Generic toasts: 5 seconds, top centre, one at a time per message. */
export const toast = {
  success: (message: string, title?: string) => showGeneric('success', message, title),
  error: (message: string, title?: string) => showGeneric('error', message, title),
  info: (message: string, title?: string) => showGeneric('info', message, title),
};

/**
 * A failed action's error toast (`message`, else the error's own sentence), except when the user
 * closed the step-up dialog the action asked for (403 STEP_UP_REQUIRED, lib/step-up.ts): they chose
 * not to go on, and nothing else went wrong.
 */
export function toastFailure(error: unknown, message = errorMessage(error)): void {
  if (!isStepUpRequired(error)) toast.error(message);
}
