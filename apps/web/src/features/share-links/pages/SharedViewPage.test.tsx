import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, apiError, json, mockApi, publicConfig } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';

const TOKEN = 'Abcdefghijklmnopqrstuvwxyz0123456789_-ABCDE';
const VIEW = `GET /v1/share/${TOKEN}/`;

const view = {
  module: 'TR',
  module_name: '2D Transit',
  overview: '2D Transit follows the workspace’s shipments in transit.',
  workspace: { name: 'Harbour', logo: null },
  shared_by: { name: 'Olive Owner' },
  shared_at: '2030-06-01T12:00:00.000Z',
  expires_at: '2030-06-08T12:00:00.000Z',
};

/** Nothing of the app shell: no header menus, no sidebar, no breadcrumbs, no account menu. */
function expectNoAppShell() {
  expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).toBeNull();
  expect(screen.queryByRole('button', { name: /account menu/i })).toBeNull();
  expect(screen.queryByRole('button', { name: /^Workspace: / })).toBeNull();
  expect(screen.queryByRole('button', { name: /^Module: / })).toBeNull();
}

describe('the public page of a share link', () => {
  it('shows the module, the workspace, who shared it and the expiry to a visitor not signed in', async () => {
    const mock = mockApi({ 'GET /v1/config': json(publicConfig), [VIEW]: json(view) });
    const app = renderApp(`/share/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    expect(app.location()).toBe(`/share/${TOKEN}`);
    expect(screen.getByText('Harbour')).toBeVisible();
    expect(screen.getByText(view.overview)).toBeVisible();
    expect(screen.getByText('Read-only view')).toBeVisible();
    expect(screen.getByText(/Olive Owner, on 06\/01\/2030/)).toBeVisible();
    expect(screen.getByText('06/08/2030')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Portolan home' })).toBeInTheDocument();
    expectNoAppShell();
    await waitFor(() => expect(document.title).toBe('Shared page | Portolan'));
    expect(mock.callsTo(VIEW)[0]!.headers.get('authorization')).toBeNull();
  });

  it('says a link that opens nothing is no longer valid, and offers sign-in', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      [VIEW]: apiError(404, 'NOT_FOUND', 'This link is no longer valid.'),
    });
    renderApp(`/share/${TOKEN}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is no longer valid' }),
    ).toBeVisible();
    expect(screen.getByText(/revoked or have expired/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByText('Harbour')).toBeNull();
    expectNoAppShell();
  });

  it('opens the same with anything after the token', async () => {
    const mock = mockApi({ 'GET /v1/config': json(publicConfig), [VIEW]: json(view) });
    renderApp(`/share/${TOKEN}/extra/parts`);
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    expect(mock.callsTo(VIEW)).toHaveLength(1);
  });

  it('shows only the shared view to a signed-in user, sent without their session', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [VIEW]: json({
        ...view,
        shared_by: null,
        expires_at: null,
        workspace: { name: 'Harbour', logo: '/uploads/h.png' },
      }),
    });
    signIn();
    const app = renderApp(`/share/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    expect(app.location()).toBe(`/share/${TOKEN}`);
    expect(screen.getByText(/A member of the workspace, on/)).toBeVisible();
    expect(screen.getByText('Never (until it is revoked)')).toBeVisible();
    expectNoAppShell();
    expect(mock.callsTo(VIEW)[0]!.headers.get('authorization')).toBeNull();
  });

  it('says when the page could not be loaded, with Retry', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      [VIEW]: [
        apiError(500, 'INTERNAL_ERROR', 'Boom'),
        apiError(500, 'INTERNAL_ERROR', 'Boom'),
        json(view),
      ],
    });
    renderApp(`/share/${TOKEN}`);
    expect(await screen.findByText('The shared page could not be opened')).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
  });

  it('stays on the link when a stored session turns out to be over (no trip to sign-in)', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      'GET /v1/rest-auth/user/': apiError(401, 'NOT_AUTHENTICATED', 'Sign in to continue.'),
      [VIEW]: json(view),
    });
    signIn();
    const app = renderApp(`/share/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    // Something asks for the user with the stale token: the session ends, the page stays.
    await api.get('/v1/rest-auth/user/').catch(() => undefined);
    await waitFor(() => expect(useAuthStore.getState().userToken).toBeNull());
    expect(app.location()).toBe(`/share/${TOKEN}`);
    expect(screen.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
  });
});
