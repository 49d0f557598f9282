import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ids, orgList, page } from '../../../test/tenancy-fixtures';
import { missingProfileParts } from './DashboardPage';

const ME_ORGS = 'GET /v1/me/organizations/and/clients/';
const complete = { ...ada, phone: '+44 20 7946 0000', avatar: '/uploads/ada.png' };

describe('DashboardPage', () => {
  it('says each thing once: one heading, layout breadcrumbs, the e-mail once', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(complete), [ME_ORGS]: json(page([])) });
    signIn({ ...ada, can_create_client: false });
    renderApp('/ps/dashboard');

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
    const main = screen.getByRole('main');
    expect(within(main).getAllByRole('heading', { level: 1 })).toHaveLength(1);
    // The breadcrumbs come from the layout, once; the page does not repeat its own name.
    expect(screen.getAllByRole('navigation', { name: 'Breadcrumb' })).toHaveLength(1);
    expect(within(main).queryByText(/portal dashboard/i)).toBeNull();
    expect(within(main).getAllByText(/ada@example\.com/)).toHaveLength(1);
    expect(within(main).getByText(/Signed in as/)).toHaveTextContent(
      'Signed in as ada@example.com',
    );
    // No organization and no right to create one: the honest empty state.
    expect(
      await screen.findByRole('heading', {
        level: 2,
        name: 'You do not belong to any workspace yet',
      }),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Create your organization' })).toBeNull();
  });

  it('offers "Create your organization" to a user with none who may create one', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(complete), [ME_ORGS]: json(page([])) });
    signIn();
    renderApp('/ps/dashboard');
    const section = await screen.findByRole('region', { name: 'Create your organization' });
    expect(within(section).getByRole('link', { name: 'Create your organization' })).toHaveAttribute(
      'href',
      '/ps/organizations/create',
    );
  });

  it('lists the organizations by name and their workspaces; Open switches in a new tab', async () => {
    const user = userEvent.setup();
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(complete),
      [ME_ORGS]: json(page(orgList())),
      'POST /v1/activities/': json({ id: 'x' }, 201),
    });
    signIn();
    renderApp('/ps/dashboard');
    const sections = await screen.findAllByRole('region', { name: /^(Acme|beta|zeta)$/ });
    expect(
      sections.map((s) => s.getAttribute('aria-labelledby') && s.querySelector('h2')?.textContent),
    ).toEqual(['Acme', 'beta', 'zeta']);
    const acme = sections[0]!;
    expect(
      within(acme)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['dock', 'Harbour', 'Quiet']);
    expect(within(acme).getByRole('link', { name: 'Add a workspace' })).toHaveAttribute(
      'href',
      `/ps/organizations/${ids.acme}/clients/add`,
    );
    expect(within(sections[1]!).queryByRole('link', { name: 'Add a workspace' })).toBeNull();
    const opened: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      if (this.target === '_blank') opened.push(this.getAttribute('href')!);
    });
    await user.click(within(acme).getByRole('button', { name: 'Open Harbour in a new tab' }));
    expect(opened).toEqual([`/tr/${ids.harbour}/home`]);
    expect(useAuthStore.getState().current_client?.id).toBe(ids.harbour);
    expect(mock.callsTo('POST /v1/activities/')).toHaveLength(1);
  });

  it('shows no profile prompt when the profile is complete', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(complete) });
    signIn();
    renderApp('/ps/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada' });
    expect(screen.queryByRole('heading', { name: 'Your profile is not complete' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Complete your profile' })).toBeNull();
    expect(screen.queryByText(/complete your profile/i)).toBeNull();
  });

  it('prompts for exactly what the profile lacks, with the way to My Settings', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json({ ...ada, phone: '', avatar: null }) });
    signIn();
    renderApp('/ps/dashboard');

    const prompt = await screen.findByRole('region', { name: 'Your profile is not complete' });
    expect(prompt).toHaveTextContent('Add a photo and a phone number,');
    expect(within(prompt).getByRole('link', { name: 'Complete your profile' })).toHaveAttribute(
      'href',
      '/ps/profile',
    );
  });

  it('lists the missing parts', () => {
    expect(missingProfileParts(complete)).toEqual([]);
    expect(missingProfileParts({ ...complete, last_name: ' ' })).toEqual(['your full name']);
    expect(missingProfileParts({ ...complete, avatar: null })).toEqual(['a photo']);
    expect(missingProfileParts({ ...complete, phone: '' })).toEqual(['a phone number']);
  });

  it('a failed profile load says why, as the toast does: server error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi({ 'GET /v1/rest-auth/user/': apiError(500, 'INTERNAL_ERROR', 'Internal error.') });
    signIn();
    renderApp('/ps/dashboard');
    const alert = await screen.findByText(/We could not load your profile/, undefined, {
      timeout: 8000,
    });
    expect(alert).toHaveTextContent('The server ran into a problem on its side.');
    expect(alert).not.toHaveTextContent(/connection/);
  });

  it('a failed profile load says why, as the toast does: no connection', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': () => Promise.reject(new TypeError('Failed to fetch')) });
    signIn();
    renderApp('/ps/dashboard');
    const alert = await screen.findByText(/We could not load your profile/);
    expect(alert).toHaveTextContent('Check your internet connection.');
  });
});
