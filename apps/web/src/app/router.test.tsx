import { Messages } from '@portolan/contract';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './layout/RouteErrorBoundary';
import { AppProviders } from './providers';
import { lazyPage, routes } from './router';

describe('router', () => {
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
