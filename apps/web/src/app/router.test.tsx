import { isPublicPage, Messages, PUBLIC_PAGES } from '@portolan/contract';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './layout/RouteErrorBoundary';
import { AppProviders } from './providers';
import { authLayout, lazyPage, routes } from './router';

describe('router', () => {
  it('lists every page of the sign-in layout as a public page (the server sends it index.html)', () => {
    const paths: string[] = [];
    const walk = (list: typeof routes, prefix: string, underAuth: boolean) => {
      for (const route of list) {
        const inAuth = underAuth || route.lazy === authLayout;
        const full = route.path ? `${prefix}/${route.path}`.replace(/\/+/g, '/') : prefix;
        if (inAuth && route.path) paths.push(full);
        if (route.children) walk(route.children, full, inAuth);
      }
    };
    walk(routes, '', false);
    expect(paths.length).toBeGreaterThan(8);
    for (const p of paths) {
      const concrete = p.replace(/:[^/]+/g, 'x').replace(/\*$/, 'y');
      expect(isPublicPage(concrete), p).toBe(true);
    }
    // And nothing else: every listed page is one of those routes (or the root, which redirects).
    for (const p of PUBLIC_PAGES) if (p !== '/') expect(paths, p).toContain(p);
  });

  it('makes every page a lazy route', () => {
    const pages: string[] = [];
    const walk = (list: typeof routes) => {
      for (const route of list) {
        if (route.path && !route.children) {
          pages.push(route.path);
          expect(route.lazy, `route ${route.path}`).toBeTypeOf('function');
          expect(route.Component, `route ${route.path}`).toBeUndefined();
        }
        if (route.children) walk(route.children);
      }
    };
    walk(routes);
    expect(pages).toEqual(
      expect.arrayContaining([
        'login',
        'register',
        'forgot-password',
        'reset-password',
        'google-auth',
        'error',
        'no-access',
        'server-error',
        'not-found',
        'ps/dashboard',
        'ps/:client_id/dashboard',
        'ps/profile',
        '*',
      ]),
    );
  });

  it('a page chunk that fails to load shows the "newer version" toast with Reload', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = createMemoryRouter(
      [
        {
          path: '/',
          ErrorBoundary: RouteErrorBoundary,
          lazy: lazyPage(() =>
            Promise.reject(
              new TypeError('Failed to fetch dynamically imported module: /assets/Page-x1.js'),
            ),
          ),
        },
      ],
      { initialEntries: ['/'] },
    );
    render(
      <AppProviders env="test">
        <RouterProvider router={router} />
      </AppProviders>,
    );

    const toast = (
      await screen.findByText(Messages.newerVersion, {
        selector: '.mantine-Notification-root *',
      })
    ).closest('.mantine-Notification-root') as HTMLElement;
    expect(within(toast).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'A newer version is available' }),
    ).toBeVisible();
  });
});
