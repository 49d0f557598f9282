import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { publicConfigKey } from '../../lib/config';
import { queryClient } from '../../lib/query-client';
import { ada, json, mockApi, publicConfig } from '../../test/api-mock';
import { renderApp, signIn } from '../../test/render-app';

const SUPPORT = 'help@portolan.test';
const config = { ...publicConfig, support_email: SUPPORT, analytics: null };

/** The configured support address (spec §1) from the entry script's prefetch of the config. */
function withConfig(handlers: Record<string, Response> = {}) {
  queryClient.setQueryData(publicConfigKey, config);
  return mockApi({ 'GET /v1/config': json(config), ...handlers });
}

const expectMailto = (scope: HTMLElement) =>
  expect(within(scope).getByRole('link', { name: SUPPORT })).toHaveAttribute(
    'href',
    `mailto:${SUPPORT}`,
  );

describe('the support address', () => {
  it('is in the footer of the public pages', async () => {
    withConfig();
    renderApp('/login');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeVisible();
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(`Support: ${SUPPORT}`);
    expectMailto(footer);
  });

  it('is in the footer of the signed-in shell', async () => {
    withConfig({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    renderApp('/ps/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Settings' })).toBeVisible();
    expectMailto(screen.getByRole('contentinfo'));
  });

  it.each([
    ['/error', 'Something went wrong'],
    ['/server-error', 'The server ran into a problem'],
    ['/no-access', 'Access Denied!'],
    ['/not-found', 'Page not found'],
    ['/no/such/page', 'Page not found'],
  ])('is on the error page %s, with a mailto link', async (path, heading) => {
    withConfig();
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeVisible();
    expectMailto(screen.getByRole('main'));
  });

  it('is on PSErrorPage (a workspace that is not among yours)', async () => {
    withConfig({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    renderApp('/ps/error');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This workspace is not among yours' }),
    ).toBeVisible();
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent(
      `If you think you should have access, write to support at ${SUPPORT}.`,
    );
    expectMailto(main);
  });

  it('is left out, without breaking the page, while the config is not known', async () => {
    mockApi();
    renderApp('/server-error');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The server ran into a problem' }),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: /@/ })).toBeNull();
    expect(screen.getByRole('contentinfo')).not.toHaveTextContent('Support');
  });
});
