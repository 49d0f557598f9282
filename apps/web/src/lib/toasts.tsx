import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Messages, TOAST_DURATION_MS } from '@portolan/contract';

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

/** Generic toasts: 5 seconds, top centre. */
export const toast = {
  success(message: string, title?: string) {
    notifications.show({
      color: 'teal',
      title,
      message,
      position: 'top-center',
      autoClose: TOAST_DURATION_MS,
      closeButtonProps,
    });
  },
  error(message: string, title?: string) {
    notifications.show({
      color: 'red',
      title,
      message,
      position: 'top-center',
      autoClose: TOAST_DURATION_MS,
      closeButtonProps,
    });
  },
  info(message: string, title?: string) {
    notifications.show({
      color: 'blue',
      title,
      message,
      position: 'top-center',
      autoClose: TOAST_DURATION_MS,
      closeButtonProps,
    });
  },
};
