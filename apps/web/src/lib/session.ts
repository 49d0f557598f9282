import { TOKEN_CHECK_INTERVAL_MS, TOKEN_REFRESH_THRESHOLD_MIN } from '@portolan/contract';
import { api } from './api';
import {
  AUTH_STORAGE_KEY,
  LOGOUT_STORAGE_KEY,
  decodeTokenExpiry,
  relogin,
  useAuthStore,
} from './auth-store';

interface TokenResponse {
  token: string;
}

let refreshing: Promise<boolean> | null = null;

/** POST /v1/rest-auth/app/jwt-refresh/ {token} → {token}. Resolves whether it succeeded. */
export function refreshToken(token: string): Promise<boolean> {
  if (refreshing) return refreshing;
  refreshing = api
    .post<TokenResponse>(
      '/v1/rest-auth/app/jwt-refresh/',
      { token },
      { token, noAuthRedirect: true, noServerErrorToast: true, silent: true },
    )
    .then((res) => {
      if (!res || typeof res.token !== 'string' || !res.token) return false;
      // Another tab or a logout may have replaced the token meanwhile: only swap our own.
      if (useAuthStore.getState().userToken !== token) return false;
      useAuthStore.getState().setToken(res.token);
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/**
 * The token check (spec §4), run on start and every TOKEN_CHECK_INTERVAL_MS: read the stored
 * token's expiry; with TOKEN_REFRESH_THRESHOLD_MIN minutes or less left, refresh it (success →
 * isAuth true, failure → isAuth false and logout); otherwise isAuth is true.
 */
export async function checkToken(now: number = Date.now()): Promise<void> {
  const { userToken, setIsAuth } = useAuthStore.getState();
  if (!userToken) {
    setIsAuth(false);
    return;
  }
  const exp = decodeTokenExpiry(userToken);
  const minutesLeft = exp === null ? -Infinity : (exp * 1000 - now) / 60_000;
  if (minutesLeft > TOKEN_REFRESH_THRESHOLD_MIN) {
    setIsAuth(true);
    return;
  }
  const ok = await refreshToken(userToken);
  if (ok) {
    useAuthStore.getState().setIsAuth(true);
    return;
  }
  if (useAuthStore.getState().userToken !== userToken) return; // replaced meanwhile
  useAuthStore.getState().setIsAuth(false);
  await logout();
}

/** Tells the other tabs that this browser signed out. */
function broadcastLogout() {
  try {
    window.localStorage.setItem(LOGOUT_STORAGE_KEY, String(Date.now()));
  } catch {
    // Storage can be full or disabled; the other tabs will find out at their next call.
  }
}

/**
 * Logout (spec §4): the auth call, then relogin. A failure of the call is only logged: the
 * session ends in this browser either way.
 */
export async function logout(): Promise<void> {
  const token = useAuthStore.getState().userToken;
  if (token) {
    try {
      await api.post('/v1/rest-auth/logout/', undefined, {
        token,
        noAuthRedirect: true,
        noServerErrorToast: true,
        noNetworkErrorToast: true,
        spinner: true,
        loadingMessage: 'Signing you out…',
      });
    } catch (error) {
      console.error('Logout request failed', error);
    }
  }
  broadcastLogout();
  relogin();
}

function onStorage(event: StorageEvent) {
  if (event.key === LOGOUT_STORAGE_KEY && event.newValue !== null) relogin();
  if (event.key === AUTH_STORAGE_KEY && event.newValue !== null)
    adoptRefreshedToken(event.newValue);
}

/**
 * Another tab refreshed the token: the server retires the token it replaced a few seconds later,
 * so this tab takes the new one instead of signing everyone out with the old one.
 */
function adoptRefreshedToken(stored: string) {
  let token: unknown;
  try {
    token = (JSON.parse(stored) as { state?: { userToken?: unknown } }).state?.userToken;
  } catch {
    return;
  }
  const current = useAuthStore.getState().userToken;
  if (typeof token === 'string' && token && current && token !== current) {
    useAuthStore.setState({ userToken: token });
  }
}

/**
 * Starts the session machinery of this tab: the token check now and every 5 minutes, and the
 * cross-tab logout listener. Returns the function that stops it.
 */
export function startSession(): () => void {
  void checkToken();
  const interval = window.setInterval(() => void checkToken(), TOKEN_CHECK_INTERVAL_MS);
  window.addEventListener('storage', onStorage);
  return () => {
    window.clearInterval(interval);
    window.removeEventListener('storage', onStorage);
  };
}
