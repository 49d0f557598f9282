import { Messages } from '@portolan/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../app/providers';
import { apiError, json, mockApi } from '../test/api-mock';
import { signIn } from '../test/render-app';
import { ApiError, api, apiRequest } from './api';
import { REMEMBERED_PATH_KEY, useAuthStore } from './auth-store';
import { useLoadingStore } from './loading-store';

function renderToasts() {
  return render(
    <AppProviders env="test">
      <div />
    </AppProviders>,
  );
}

describe('api client', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/ps/profile?tab=password');
  });

  it('sends JSON with the stored bearer token, same origin', async () => {
    const mock = mockApi({ 'POST /v1/things/': json({ ok: true }, 201) });
    const token = signIn();

    await expect(api.post('/v1/things/', { name: 'x' })).resolves.toEqual({ ok: true });

    const [call] = mock.calls;
    expect(call?.url).toBe('/v1/things/');
    expect(call?.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(call?.headers.get('Content-Type')).toBe('application/json');
    expect(call?.body).toEqual({ name: 'x' });
  });

  it('sends no Authorization header without a stored token, and the given one when asked', async () => {
    const mock = mockApi({ 'GET /v1/config': json({}) });
    await api.get('/v1/config');
    await api.get('/v1/config', { token: 'activation-token' });
    expect(mock.calls[0]?.headers.has('Authorization')).toBe(false);
    expect(mock.calls[1]?.headers.get('Authorization')).toBe('Bearer activation-token');
  });

  it('rejects with an ApiError carrying the status and the server body', async () => {
    const details = [{ field: 'email', message: 'Enter a valid e-mail address.' }];
    mockApi({
      'POST /v1/rest-auth/registration/': apiError(
        400,
        'VALIDATION_ERROR',
        'Check the form.',
        details,
      ),
    });

    const error = await api.post('/v1/rest-auth/registration/', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    const apiErr = error as ApiError;
    expect(apiErr.status).toBe(400);
    expect(apiErr.code).toBe('VALIDATION_ERROR');
    expect(apiErr.message).toBe('Check the form.');
    expect(apiErr.fieldErrors).toEqual(details);
  });

  it('401 on an authenticated call: isAuth false and relogin to /login?path=<current path>', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': apiError(401, 'NOT_AUTHENTICATED', 'Sign in again.') });
    signIn();
    const link = document.createElement('link');
    link.id = 'custom-css';
    document.head.append(link);

    await expect(api.get('/v1/rest-auth/user/')).rejects.toMatchObject({ status: 401 });

    const state = useAuthStore.getState();
    expect(state.isAuth).toBe(false);
    expect(state.userToken).toBeNull();
    expect(state.user).toBeNull();
    expect(window.location.pathname).toBe('/login');
    expect(window.location.search).toBe('?path=%2Fps%2Fprofile%3Ftab%3Dpassword');
    expect(window.sessionStorage.getItem(REMEMBERED_PATH_KEY)).toBe('/ps/profile?tab=password');
    expect(document.getElementById('custom-css')).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('auth') ?? '{}').state.userToken).toBeNull();
  });

  it('401 on a call without the stored token (e.g. sign-in) does not relogin', async () => {
    mockApi({ 'POST /v1/rest-auth/app/login/': apiError(401, 'NOT_AUTHENTICATED', 'No.') });

    await expect(api.post('/v1/rest-auth/app/login/', {})).rejects.toMatchObject({ status: 401 });

    expect(window.location.pathname).toBe('/ps/profile');
    expect(window.sessionStorage.getItem(REMEMBERED_PATH_KEY)).toBeNull();
  });

  it('500: one server-error toast with Dismiss and Reload, even after two failures', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /v1/boom/': apiError(500, 'INTERNAL_ERROR', 'Internal error.') });
    renderToasts();

    await expect(api.get('/v1/boom/')).rejects.toMatchObject({ status: 500 });
    await expect(api.get('/v1/boom/')).rejects.toMatchObject({ status: 500 });

    const toasts = await screen.findAllByText(Messages.serverError);
    expect(toasts).toHaveLength(1);
    const toast = toasts[0]!.closest('.mantine-Notification-root') as HTMLElement;
    expect(within(toast).getByRole('button', { name: 'Reload' })).toBeInTheDocument();

    // Dismissed, it can come back on the next failure (once again).
    await user.click(within(toast).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText(Messages.serverError)).toBeNull());
    await expect(api.get('/v1/boom/')).rejects.toMatchObject({ status: 500 });
    expect(await screen.findAllByText(Messages.serverError)).toHaveLength(1);
  });

  it('a call can opt out of the server-error toast', async () => {
    mockApi({ 'GET /v1/boom/': apiError(503, 'SERVICE_UNAVAILABLE', 'Down.') });
    renderToasts();

    await expect(api.get('/v1/boom/', { noServerErrorToast: true })).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });

    // Wait for the lazily loaded toast container, then check that nothing is in it.
    await screen.findByTestId('loading-message');
    expect(screen.queryByText(Messages.serverError)).toBeNull();
  });

  it('network failure: the network-error toast with the exact text, shown once', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderToasts();

    const first = await apiRequest('/v1/config').catch((e: unknown) => e);
    await apiRequest('/v1/config').catch(() => undefined);

    expect(first).toBeInstanceOf(ApiError);
    expect((first as ApiError).status).toBe(0);
    expect((first as ApiError).code).toBe('NETWORK_ERROR');
    expect(await screen.findAllByText(Messages.networkError)).toHaveLength(1);
  });

  describe('timeout', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('aborts after HTTP_TIMEOUT_MS (600000 ms) with a TIMEOUT error', async () => {
      vi.useFakeTimers();
      vi.stubGlobal(
        'fetch',
        vi.fn(
          (_input: RequestInfo | URL, init?: RequestInit) =>
            new Promise<Response>((_resolve, reject) => {
              init?.signal?.addEventListener('abort', () =>
                reject(new DOMException('Aborted', 'AbortError')),
              );
            }),
        ),
      );

      const pending = apiRequest('/v1/slow/').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(599_999);
      let settled = false;
      void pending.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);

      await vi.advanceTimersByTimeAsync(1);
      const error = await pending;
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('TIMEOUT');
    });
  });

  it('counts requests in flight and shows the loading message while a call runs', async () => {
    let release: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (release = resolve))),
    );

    const pending = apiRequest('/v1/upload/', {
      method: 'POST',
      loadingMessage: 'Uploading your photo…',
      spinner: true,
    });
    expect(useLoadingStore.getState()).toMatchObject({ pending: 1, spinners: 1, barVisible: true });
    expect(useLoadingStore.getState().messages[0]?.text).toBe('Uploading your photo…');

    release(json({ url: '/uploads/x.png' }));
    await pending;
    expect(useLoadingStore.getState()).toMatchObject({ pending: 0, spinners: 0, messages: [] });
  });
});
