/**
 * A dismissed credential alert stays dismissed for the rest of the browser session (this tab), for
 * that workspace and that message: the same failure is not shown again, a different message is.
 * One sessionStorage entry per workspace, holding the message dismissed.
 */
const KEY_PREFIX = 'portolan.credential-alert.dismissed:';

const keyOf = (clientId: string) => `${KEY_PREFIX}${clientId}`;

export function isCredentialAlertDismissed(clientId: string, message: string | null): boolean {
  try {
    return window.sessionStorage.getItem(keyOf(clientId)) === (message ?? '');
  } catch {
    return false;
  }
}

export function dismissCredentialAlert(clientId: string, message: string | null): void {
  try {
    window.sessionStorage.setItem(keyOf(clientId), message ?? '');
  } catch {
    // Storage refused (private mode, quota): the alert is hidden until the page is left.
  }
}
