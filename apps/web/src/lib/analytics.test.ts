import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { publicConfig } from '../test/api-mock';
import { maskPath, track, trackPageView, type AnalyticsPayload } from './analytics';
import { publicConfigKey } from './config';
import { queryClient } from './query-client';

const SINK = { id: 'PORTOLAN-TEST', url: 'https://sink.example.net/collect' };
const WORKSPACE = '3f1c9a6e-2b4d-4c8e-9f00-1a2b3c4d5e6f';
const USER = '5f0c7f4e-8a59-4d1b-9f6e-0d2c1b7a3e10';

function configure(analytics: typeof SINK | null | undefined) {
  queryClient.setQueryData(publicConfigKey, { ...publicConfig, analytics });
}

describe('analytics', () => {
  let beacon: ReturnType<typeof vi.fn<(url: string, body: string) => boolean>>;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    beacon = vi.fn<(url: string, body: string) => boolean>(() => true);
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      writable: true,
      value: beacon,
    });
    fetchMock = vi.fn(async () => new Response(null));
    vi.stubGlobal('fetch', fetchMock);
    window.history.replaceState(null, '', `/ps/${WORKSPACE}/dashboard?token=secret&email=a@b.c`);
  });
  afterEach(() => {
    // jsdom has no sendBeacon of its own: take ours away again.
    delete (navigator as { sendBeacon?: unknown }).sendBeacon;
  });

  const sent = (i = 0) => {
    const call = beacon.mock.calls[i];
    expect(call, `beacon ${i}`).toBeDefined();
    return { url: call![0], payload: JSON.parse(call![1]) as AnalyticsPayload };
  };

  describe('when the server names a sink', () => {
    beforeEach(() => configure(SINK));

    it('sends a named event with a beacon: id, type, name, the masked path, props and time', () => {
      const before = Date.now();
      track('plan checkout started', { plan: 'BUSINESS' });
      expect(beacon).toHaveBeenCalledTimes(1);
      const { url, payload } = sent();
      expect(url).toBe(SINK.url);
      expect(payload).toEqual({
        id: SINK.id,
        type: 'event',
        name: 'plan checkout started',
        path: '/ps/:id/dashboard',
        props: { plan: 'BUSINESS' },
        ts: expect.any(String),
      });
      expect(Date.parse(payload.ts)).toBeGreaterThanOrEqual(before - 1000);
      // Nothing of the query string, no id, no address.
      const text = beacon.mock.calls[0]![1];
      expect(text).not.toContain(WORKSPACE);
      expect(text).not.toContain('secret');
      expect(text).not.toContain('@');
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('sends a page view named after its route, with UUIDs masked', () => {
      trackPageView(
        `/ps/client-settings/${WORKSPACE}/user-list/${USER}/permissions`,
        'Permissions',
      );
      expect(sent().payload).toMatchObject({
        id: SINK.id,
        type: 'pageview',
        name: 'Permissions',
        path: '/ps/client-settings/:id/user-list/:id/permissions',
        props: {},
      });
    });

    it('falls back to a keepalive fetch without cookies when no beacon can be sent', () => {
      beacon.mockReturnValue(false);
      track('sign-in');
      expect(fetchMock).toHaveBeenCalledTimes(1);
      const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
      expect(url).toBe(SINK.url);
      expect(init).toMatchObject({
        method: 'POST',
        keepalive: true,
        credentials: 'omit',
        mode: 'no-cors',
      });
      expect(JSON.parse(init.body as string)).toMatchObject({ type: 'event', name: 'sign-in' });
    });

    it('never throws, even when sending fails', () => {
      beacon.mockImplementation(() => {
        throw new TypeError('refused');
      });
      fetchMock.mockRejectedValue(new TypeError('offline'));
      expect(() => track('invitation sent')).not.toThrow();
    });
  });

  describe.each([
    ['off or unconfigured (null)', null],
    ['a config without the field', undefined],
  ])('when analytics is %s', (_label, analytics) => {
    it('sends nothing at all', () => {
      configure(analytics);
      track('sign-in');
      trackPageView('/ps/dashboard', 'ps-dashboard');
      expect(beacon).not.toHaveBeenCalled();
      expect(fetchMock).not.toHaveBeenCalled();
      expect(document.cookie).toBe('');
      expect(window.localStorage.length).toBe(0);
    });
  });

  it('sends nothing before the config is known', () => {
    track('sign-in');
    expect(beacon).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('maskPath', () => {
  it.each([
    ['/login', '/login'],
    ['/', '/'],
    [`/ps/${WORKSPACE.toUpperCase()}/dashboard`, '/ps/:id/dashboard'],
    ['/ps/organization-settings/42/detail', '/ps/organization-settings/:id/detail'],
    ['/share/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA_-x', '/share/:token'],
    // A token without a digit is still the token: the segment after /share/ always goes.
    ['/share/abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ/extra', '/share/:token/extra'],
    ['/not-found/ada%40example.com', '/not-found/:email'],
    ['/ps/organization-settings/x/users/internal', '/ps/organization-settings/x/users/internal'],
  ])('%s → %s', (path, masked) => {
    expect(maskPath(path)).toBe(masked);
  });
});
