import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { missingProfileParts } from './DashboardPage';

const complete = { ...ada, phone: '+44 20 7946 0000', avatar: '/uploads/ada.png' };

describe('DashboardPage', () => {
  it('says each thing once: one heading, layout breadcrumbs, the e-mail once', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(complete) });
    signIn();
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
    // The honest empty state stays.
    expect(
      screen.getByRole('heading', { level: 2, name: 'You do not belong to any workspace yet' }),
    ).toBeVisible();
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
