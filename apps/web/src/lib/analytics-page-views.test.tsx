import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, Outlet } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { publicConfig } from '../test/api-mock';
import { useAnalyticsPageViews, type AnalyticsPayload } from './analytics';
import { publicConfigKey } from './config';
import { queryClient } from './query-client';

const SINK = { id: 'PORTOLAN-TEST', url: 'https://sink.example.net/collect' };
const WORKSPACE = '3f1c9a6e-2b4d-4c8e-9f00-1a2b3c4d5e6f';

function Root() {
  useAnalyticsPageViews();
  return <Outlet />;
}

function renderRouter() {
  const router = createMemoryRouter(
    [
      {
        Component: Root,
        children: [
          { path: 'login', handle: { name: 'Login' }, Component: () => <p>login</p> },
          {
            path: 'ps/:client_id/dashboard',
            handle: { name: 'ps-dashboard' },
            Component: () => <p>dashboard</p>,
          },
        ],
      },
    ],
    { initialEntries: ['/login?path=%2Fps'] },
  );
  render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
  return router;
}

describe('page views on route changes', () => {
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
  });
  afterEach(() => {
    delete (navigator as { sendBeacon?: unknown }).sendBeacon;
  });

  const views = () =>
    beacon.mock.calls
      .map(([, body]) => JSON.parse(body) as AnalyticsPayload)
      .map((p) => ({
        type: p.type,
        name: p.name,
        path: p.path,
      }));

  it('sends one per navigation, named after the route, with the path masked', async () => {
    queryClient.setQueryData(publicConfigKey, { ...publicConfig, analytics: SINK });
    const router = renderRouter();
    await act(() => router.navigate(`/ps/${WORKSPACE}/dashboard`));
    await act(() => router.navigate('/login'));
    expect(views()).toEqual([
      { type: 'pageview', name: 'Login', path: '/login' },
      { type: 'pageview', name: 'ps-dashboard', path: '/ps/:id/dashboard' },
      { type: 'pageview', name: 'Login', path: '/login' },
    ]);
  });

  it('starts once the config arrives, and never fetches the config itself', async () => {
    const router = renderRouter();
    expect(beacon).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
    act(() => queryClient.setQueryData(publicConfigKey, { ...publicConfig, analytics: SINK }));
    // The cache tells its subscribers a moment later.
    await waitFor(() =>
      expect(views()).toEqual([{ type: 'pageview', name: 'Login', path: '/login' }]),
    );
    await act(() => router.navigate(`/ps/${WORKSPACE}/dashboard`));
    expect(beacon).toHaveBeenCalledTimes(2);
  });

  it('sends nothing when the server names no sink', async () => {
    queryClient.setQueryData(publicConfigKey, { ...publicConfig, analytics: null });
    const router = renderRouter();
    await act(() => router.navigate(`/ps/${WORKSPACE}/dashboard`));
    expect(beacon).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
