import { APP_VERSION } from '@portolan/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../lib/auth-store';
import { ada, apiError, json, mockApi, publicConfig } from '../test/api-mock';
import { renderApp, signIn } from '../test/render-app';
import { ids, orgList, page } from '../test/tenancy-fixtures';
import {
  BILLING,
  billingHandlers,
  CARDS,
  INVOICES,
  subscription,
} from '../features/billing/test-fixtures';

const configOnly = { 'GET /v1/config': json(publicConfig) };

describe('navigation guard', () => {
  it('sends an anonymous visit of /ps/dashboard to /login?path=%2Fps%2Fdashboard', async () => {
    mockApi(configOnly);
    const app = renderApp('/ps/dashboard');

    await waitFor(() => expect(app.location()).toBe('/login?path=%2Fps%2Fdashboard'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sign in | Portolan'));
  });

  it('keeps the query of the wanted page in the path', async () => {
    mockApi(configOnly);
    const app = renderApp('/ps/profile?tab=password');
    await waitFor(() =>
      expect(app.location()).toBe('/login?path=%2Fps%2Fprofile%3Ftab%3Dpassword'),
    );
  });

  it('sends an anonymous visit of / to the sign-in page', async () => {
    mockApi(configOnly);
    const app = renderApp('/');
    await waitFor(() => expect(app.location()).toBe('/login'));
  });

  it('sends a signed-in user from / to the dashboard, titled "Portal Dashboard | Portolan"', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    const app = renderApp('/');

    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Portal Dashboard | Portolan'));
  });

  it('sends a signed-in user away from /login to the path query', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    const app = renderApp('/login?path=%2Fps%2Fprofile');

    await waitFor(() => expect(app.location()).toBe('/ps/profile'));
    expect(await screen.findByRole('heading', { level: 1, name: 'My Settings' })).toBeVisible();
  });

  it('ignores a path query that leaves the site', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    const app = renderApp('/register?path=%2F%2Fevil.example.com');
    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
  });

  it('sends a signed-in user away from /register and /forgot-password to the dashboard', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    const app = renderApp('/forgot-password');
    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
  });

  it('shows Not Found at an unknown path, with a link home', async () => {
    mockApi(configOnly);
    const app = renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    expect(app.location()).toBe('/no/such/page');
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    // Anonymous: the standalone public page, no app shell.
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(screen.queryByRole('button', { name: /account menu/i })).toBeNull();
    expect(screen.getByRole('link', { name: 'Portolan home' })).toBeInTheDocument();
  });

  it('keeps the app shell around Not Found for a signed-in user', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    const app = renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    expect(app.location()).toBe('/no/such/page');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /account menu/i })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs).toHaveTextContent('Home');
    expect(crumbs).toHaveTextContent('Page not found');
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute(
      'href',
      '/ps/dashboard',
    );
    expect(screen.getByText('/no/such/page')).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Page Not Found | Portolan'));
  });

  it('/not-found itself keeps the app shell for a signed-in user', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    renderApp('/not-found');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
  });

  it('treats a /share/ path as public', async () => {
    mockApi(configOnly);
    const app = renderApp('/ps/share/abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    expect(app.location()).toBe('/ps/share/abc');
  });

  it('shows "Access Denied!" at /no-access', async () => {
    mockApi(configOnly);
    renderApp('/no-access');
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied!' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Access Denied! | Portolan'));
  });
});

describe('layout shell', () => {
  it('has the landmarks, breadcrumbs and the footer with the year and version', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    renderApp('/ps/profile');

    expect(await screen.findByRole('heading', { level: 1, name: 'My Settings' })).toBeVisible();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent(
      `© ${new Date().getFullYear()} Portolan. ${APP_VERSION}`,
    );
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs).toHaveTextContent('Home');
    expect(crumbs).toHaveTextContent('My Settings');
  });

  it('the avatar menu logs out through the API and lands on /login', async () => {
    const user = userEvent.setup();
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      'POST /v1/rest-auth/logout/': new Response(null, { status: 204 }),
      'GET /v1/config': json(publicConfig),
    });
    signIn();
    const app = renderApp('/ps/dashboard');

    await user.click(await screen.findByRole('button', { name: /account menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    expect(mock.callsTo('POST /v1/rest-auth/logout/')).toHaveLength(1);
    expect(useAuthStore.getState().userToken).toBeNull();
  });
});

describe('toast area', () => {
  it('marks the document for toasts below the logo on public pages', async () => {
    mockApi(configOnly);
    renderApp('/login');
    await screen.findByRole('button', { name: 'Sign in' });
    expect(document.documentElement).toHaveAttribute('data-toast-area', 'auth');
  });

  it('marks the document for toasts below the header on app pages, and moves with the layout', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      'POST /v1/rest-auth/logout/': new Response(null, { status: 204 }),
      'GET /v1/config': json(publicConfig),
    });
    signIn();
    const app = renderApp('/ps/profile');
    await screen.findByRole('heading', { level: 1, name: 'My Settings' });
    expect(document.documentElement).toHaveAttribute('data-toast-area', 'app');

    await user.click(screen.getByRole('button', { name: /account menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    await screen.findByRole('button', { name: 'Sign in' });
    expect(document.documentElement).toHaveAttribute('data-toast-area', 'auth');
  });
});

describe('relogin remembers the path', () => {
  it('a 401 on /ps/profile goes to /login?path=%2Fps%2Fprofile, and signing in comes back', async () => {
    const user = userEvent.setup();
    const mock = mockApi({
      'GET /v1/rest-auth/user/': [
        apiError(401, 'NOT_AUTHENTICATED', 'Your session has ended.'),
        json(ada),
      ],
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/app/login/': json({ token: 'new-token' }),
    });
    signIn();
    const app = renderApp('/ps/profile');

    await waitFor(() => expect(app.location()).toBe('/login?path=%2Fps%2Fprofile'));
    expect(useAuthStore.getState().isAuth).toBe(false);

    await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(app.location()).toBe('/ps/profile'));
    expect(await screen.findByRole('heading', { level: 1, name: 'My Settings' })).toBeVisible();
    expect(mock.callsTo('POST /v1/rest-auth/app/login/')).toHaveLength(1);
    expect(window.sessionStorage.length).toBe(0);
  });
});

describe('navigation guard: organizations, workspaces and modules', () => {
  const ME_ORGS = 'GET /v1/me/organizations/and/clients/';
  const settingsOf = (clientId: string) =>
    `GET /v1/clients/${clientId}/users/${ada.user_id}/settings/`;

  it('sends a signed-in user from / to the current workspace dashboard', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada), [ME_ORGS]: json(page(orgList())) });
    signIn();
    useAuthStore.setState({ current_client: { id: ids.dock, name: 'dock', modules: [] } });
    const app = renderApp('/');
    await waitFor(() => expect(app.location()).toBe(`/ps/${ids.dock}/dashboard`));
  });

  it('an orgId not in the list reloads it once, then goes to the dashboard', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
    });
    signIn();
    const app = renderApp('/ps/organizations/0a000000-0000-4000-8000-0000000000ff/clients/add');
    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
    expect(mock.callsTo(ME_ORGS)).toHaveLength(2);
  });

  it('an orgId found by the reload stays', async () => {
    const [first, ...rest] = orgList();
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: [json(page(rest)), json(page([first!, ...rest]))],
    });
    signIn();
    const path = `/ps/organizations/${ids.zeta}/clients/add`;
    const app = renderApp(path);
    await waitFor(() => expect(mock.callsTo(ME_ORGS)).toHaveLength(2));
    expect(await screen.findByRole('heading', { level: 1 })).toBeVisible();
    expect(app.location()).toBe(path);
  });

  it('keeps org.param equal to the orgId of the route, and null elsewhere', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
      [`GET /v1/organizations/${ids.zeta}/`]: json({
        id: ids.zeta,
        name: 'Zeta',
        logo: null,
        role: { key: 'OWNER', name: 'Owner' },
      }),
    });
    signIn();
    const app = renderApp(`/ps/organizations/${ids.zeta}/clients/add`);
    await waitFor(() => expect(useAuthStore.getState().org.param).toBe(ids.zeta));
    await act(() => app.router.navigate('/ps/profile'));
    await waitFor(() => expect(useAuthStore.getState().org.param).toBeNull());
  });

  it('a client_id not among the workspaces reloads once, then shows PSErrorPage', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
    });
    signIn();
    const stranger = '0c000000-0000-4000-8000-0000000000ff';
    const app = renderApp(`/ps/${stranger}/dashboard`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This workspace is not among yours' }),
    ).toBeVisible();
    expect(app.location()).toBe(`/ps/error?client=${stranger}`);
    expect(mock.callsTo(ME_ORGS)).toHaveLength(2);
    await waitFor(() => expect(document.title).toBe('Workspace Not Found | Portolan'));
  });

  it('a client_id other than the current workspace makes it current and loads the role', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
      [settingsOf(ids.zebra)]: json({
        role: { key: 'MANAGER', name: 'Manager' },
        client_modules: [{ module: 'TR', enabled: true }],
        client_information: { name: 'Zebra' },
      }),
    });
    signIn();
    useAuthStore.setState({ current_client: { id: ids.dock, name: 'dock', modules: [] } });
    renderApp(`/ps/${ids.zebra}/dashboard`);
    await waitFor(() => expect(useAuthStore.getState().current_client?.id).toBe(ids.zebra));
    await waitFor(() =>
      expect(useAuthStore.getState().role).toEqual({
        userRole: 'MANAGER',
        currentEditClientId: ids.zebra,
      }),
    );
    expect(useAuthStore.getState().org.current?.id).toBe(ids.zeta);
  });

  it('a module path with no remembered channel goes to the workspace dashboard', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada), [ME_ORGS]: json(page(orgList())) });
    signIn();
    const app = renderApp(`/tr/${ids.harbour}/home`);
    await waitFor(() => expect(app.location()).toBe(`/ps/${ids.harbour}/dashboard`));
  });

  it('a path whose module differs from the remembered one makes it the channel when enabled', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada), [ME_ORGS]: json(page(orgList())) });
    signIn();
    useAuthStore.setState({ ps_current_channel: { [ids.harbour]: 'MAP' } });
    const app = renderApp(`/tr/${ids.harbour}/home`);
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    expect(app.location()).toBe(`/tr/${ids.harbour}/home`);
    await waitFor(() => expect(useAuthStore.getState().ps_current_channel[ids.harbour]).toBe('TR'));
    await waitFor(() => expect(document.title).toBe('2D Transit | Portolan'));
  });

  it('a path whose module is not enabled in the workspace goes to the dashboard', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada), [ME_ORGS]: json(page(orgList())) });
    signIn();
    useAuthStore.setState({ ps_current_channel: { [ids.quiet]: 'MAP' } });
    const app = renderApp(`/tr/${ids.quiet}/home`);
    await waitFor(() => expect(app.location()).toBe(`/ps/${ids.quiet}/dashboard`));
  });

  it('an empty organization list resets the current workspace and sends workspace pages to the dashboard', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada), [ME_ORGS]: json(page([])) });
    signIn();
    useAuthStore.setState({
      current_client: { id: ids.dock, name: 'dock', modules: [] },
      ps_current_channel: { [ids.dock]: 'TR' },
    });
    const app = renderApp(`/tr/${ids.dock}/home`);
    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
    await waitFor(() => expect(useAuthStore.getState().current_client).toBeNull());
  });

  it('an empty organization list leaves billing pages open in payment-method mode only', async () => {
    const visa = {
      id: '5d000000-0000-4000-8000-000000000001',
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2039,
      is_default: true,
    };
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [ME_ORGS]: json(page([])),
      [CARDS]: json({ default_payment_method: visa.id, results: [visa] }),
      [INVOICES]: json(page([])),
    });
    signIn();
    const app = renderApp(`${BILLING}/subscription`);
    expect(await screen.findByRole('heading', { name: 'Subscription' })).toBeVisible();
    expect(app.location()).toBe(`${BILLING}/subscription`);
    expect(mock.callsTo(CARDS).length).toBeGreaterThan(0);
  });

  it('an empty organization list sends billing pages to the dashboard without a card or an invoice', async () => {
    mockApi({
      ...billingHandlers(subscription()),
      [ME_ORGS]: json(page([])),
      [CARDS]: json({ default_payment_method: null, results: [] }),
      [INVOICES]: json(page([])),
    });
    signIn();
    const app = renderApp(`${BILLING}/subscription`);
    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
  });
});
