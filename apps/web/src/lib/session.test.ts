import { TOKEN_CHECK_INTERVAL_MS, TOKEN_REFRESH_THRESHOLD_MIN } from '@portolan/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, mockApi, tokenExpiringIn } from '../test/api-mock';
import {
  AUTH_STORAGE_KEY,
  LOGOUT_STORAGE_KEY,
  REMEMBERED_PATH_KEY,
  decodeTokenExpiry,
  relogin,
  useAuthStore,
} from './auth-store';
import { checkToken, logout, startSession } from './session';

function stored() {
  const raw = window.localStorage.getItem(AUTH_STORAGE_KEY);
  return raw ? (JSON.parse(raw) as { state: Record<string, unknown> }).state : null;
}

describe('auth store', () => {
  it('persists the spec §3 shape under the localStorage key "auth", without isAuth', () => {
    useAuthStore.getState().setToken('t1');
    useAuthStore
      .getState()
      .setUser({ user_id: 'u1', email: '  ada@example.com ', can_create_client: true }, '/a.png');
    useAuthStore.getState().setIsAuth(true);

    const state = stored();
    expect(state).toEqual({
      userToken: 't1',
      user: { user_id: 'u1', email: 'ada@example.com', can_create_client: true },
      avatarURL: '/a.png',
      current_client: null,
      role: { userRole: null, currentEditClientId: null },
      ps_current_channel: {},
      org: { current: null, list: [], param: null },
    });
    expect(state).not.toHaveProperty('isAuth');
  });

  it('isAuth starts false even with a stored token', async () => {
    window.localStorage.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({ state: { userToken: 'kept' }, version: 1 }),
    );
    await useAuthStore.persist.rehydrate();
    expect(useAuthStore.getState().userToken).toBe('kept');
    expect(useAuthStore.getState().isAuth).toBe(false);
  });

  it('reads the expiry of a JWT without verifying it', () => {
    const now = Date.UTC(2025, 0, 1);
    const exp = decodeTokenExpiry(tokenExpiringIn(60, now));
    expect(exp).toBe(now / 1000 + 3600);
    expect(decodeTokenExpiry('not-a-jwt')).toBeNull();
  });
});

describe('token check', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/ps/dashboard');
  });

  it(`refreshes when ${TOKEN_REFRESH_THRESHOLD_MIN} minutes or less remain`, async () => {
    const old = tokenExpiringIn(179);
    const mock = mockApi({ 'POST /v1/rest-auth/app/jwt-refresh/': json({ token: 'fresh' }) });
    useAuthStore.getState().setToken(old);

    await checkToken();

    expect(mock.callsTo('POST /v1/rest-auth/app/jwt-refresh/')).toHaveLength(1);
    expect(mock.calls[0]?.body).toEqual({ token: old });
    expect(useAuthStore.getState().userToken).toBe('fresh');
    expect(useAuthStore.getState().isAuth).toBe(true);
    expect(stored()?.userToken).toBe('fresh');
  });

  it('refreshes at exactly 180 minutes left', async () => {
    const now = Date.now();
    const mock = mockApi({ 'POST /v1/rest-auth/app/jwt-refresh/': json({ token: 'fresh' }) });
    useAuthStore.getState().setToken(tokenExpiringIn(180, now));
    await checkToken(now);
    expect(mock.calls).toHaveLength(1);
  });

  it('does not refresh with more than 180 minutes left, and sets isAuth', async () => {
    const mock = mockApi();
    useAuthStore.getState().setToken(tokenExpiringIn(181));
    await checkToken();
    expect(mock.calls).toHaveLength(0);
    expect(useAuthStore.getState().isAuth).toBe(true);
  });

  it('a failed refresh sets isAuth false and logs out (auth call, then relogin)', async () => {
    const token = tokenExpiringIn(30);
    const mock = mockApi({
      'POST /v1/rest-auth/app/jwt-refresh/': apiError(401, 'INVALID_TOKEN', 'Expired.'),
      'POST /v1/rest-auth/logout/': new Response(null, { status: 204 }),
    });
    useAuthStore.setState({ userToken: token, isAuth: true });

    await checkToken();

    expect(mock.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v1/rest-auth/app/jwt-refresh/',
      'POST /v1/rest-auth/logout/',
    ]);
    expect(mock.calls[1]?.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(useAuthStore.getState()).toMatchObject({ isAuth: false, userToken: null, user: null });
    expect(window.location.pathname).toBe('/login');
    expect(window.location.search).toBe('?path=%2Fps%2Fdashboard');
    expect(window.localStorage.getItem(LOGOUT_STORAGE_KEY)).not.toBeNull();
  });

  it('without a token, isAuth stays false and nothing is called', async () => {
    const mock = mockApi();
    await checkToken();
    expect(mock.calls).toHaveLength(0);
    expect(useAuthStore.getState().isAuth).toBe(false);
  });

  describe('schedule', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('checks on start and every 5 minutes', async () => {
      vi.useFakeTimers();
      const start = Date.now();
      const mock = mockApi({ 'POST /v1/rest-auth/app/jwt-refresh/': json({ token: 'fresh' }) });
      // 185 minutes left: fine now, due for a refresh one check (5 minutes) later.
      useAuthStore.getState().setToken(tokenExpiringIn(185, start));

      const stop = startSession();
      expect(useAuthStore.getState().isAuth).toBe(true);
      expect(mock.calls).toHaveLength(0);

      await vi.advanceTimersByTimeAsync(TOKEN_CHECK_INTERVAL_MS - 1);
      expect(mock.calls).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(mock.calls).toHaveLength(1);
      expect(useAuthStore.getState().userToken).toBe('fresh');
      stop();
    });
  });
});

describe('relogin and logout', () => {
  it('relogin clears the state, remembers the path once and goes to /login?path=', () => {
    window.history.replaceState(null, '', '/ps/profile');
    useAuthStore.setState({ userToken: 't', isAuth: true });

    relogin();
    expect(window.location.pathname + window.location.search).toBe('/login?path=%2Fps%2Fprofile');
    expect(window.sessionStorage.getItem(REMEMBERED_PATH_KEY)).toBe('/ps/profile');

    // Already on /login: nothing is navigated and the remembered path is kept.
    relogin();
    expect(window.location.pathname + window.location.search).toBe('/login?path=%2Fps%2Fprofile');
    expect(window.sessionStorage.getItem(REMEMBERED_PATH_KEY)).toBe('/ps/profile');
  });

  it('a storage event on the logout key triggers relogin in this tab', () => {
    window.history.replaceState(null, '', '/ps/dashboard');
    useAuthStore.setState({ userToken: tokenExpiringIn(600), isAuth: true });
    const stop = startSession();

    window.dispatchEvent(
      new StorageEvent('storage', { key: LOGOUT_STORAGE_KEY, newValue: String(Date.now()) }),
    );

    expect(useAuthStore.getState().userToken).toBeNull();
    expect(window.location.pathname).toBe('/login');
    stop();
  });

  it('takes the token another tab refreshed, so the retired one is not used here', () => {
    window.history.replaceState(null, '', '/ps/dashboard');
    const old = tokenExpiringIn(100);
    const fresh = tokenExpiringIn(700);
    useAuthStore.setState({ userToken: old, isAuth: true });
    const stop = startSession();

    const stored = (userToken: string | null) =>
      new StorageEvent('storage', {
        key: AUTH_STORAGE_KEY,
        newValue: JSON.stringify({ state: { userToken }, version: 1 }),
      });
    window.dispatchEvent(stored(fresh));
    expect(useAuthStore.getState().userToken).toBe(fresh);
    expect(window.location.pathname).toBe('/ps/dashboard');

    // Garbage or an emptied store changes nothing here (logout has its own key).
    window.dispatchEvent(new StorageEvent('storage', { key: AUTH_STORAGE_KEY, newValue: '{' }));
    window.dispatchEvent(stored(null));
    expect(useAuthStore.getState().userToken).toBe(fresh);
    stop();
  });

  it('logout calls the API, tells other tabs, and relogins even when the call fails', async () => {
    window.history.replaceState(null, '', '/ps/dashboard');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const mock = mockApi({
      'POST /v1/rest-auth/logout/': apiError(500, 'INTERNAL_ERROR', 'Boom.'),
    });
    useAuthStore.setState({ userToken: 't', isAuth: true });

    await logout();

    expect(mock.callsTo('POST /v1/rest-auth/logout/')).toHaveLength(1);
    expect(error).toHaveBeenCalled();
    expect(window.localStorage.getItem(LOGOUT_STORAGE_KEY)).not.toBeNull();
    expect(useAuthStore.getState().userToken).toBeNull();
    expect(window.location.pathname).toBe('/login');
  });
});
