import type { AccountSession } from '@portolan/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';

const now = new Date().toISOString();
const laptop: AccountSession = {
  id: '11111111-1111-4111-8111-111111111111',
  device: 'desktop',
  browser: 'Chrome 156',
  os: 'macOS Catalina',
  ip: '203.0.113.7',
  created_at: now,
  last_active_at: now,
  expires_at: now,
  current: true,
};
const phone: AccountSession = {
  ...laptop,
  id: '22222222-2222-4222-8222-222222222222',
  device: 'mobile',
  browser: 'Safari 17',
  os: 'iOS 17.4',
  ip: '198.51.100.2',
  current: false,
};
const pageOf = (results: AccountSession[]) =>
  json({ count: results.length, next: null, previous: null, results });

describe('My Settings: where you are signed in', () => {
  it('lists the sessions, marks this one, and signs another out', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      'GET /v1/user/sessions/': [pageOf([laptop, phone]), pageOf([laptop])],
      [`DELETE /v1/user/sessions/${phone.id}/`]: json({ detail: 'The session was signed out.' }),
    });
    signIn();
    renderApp('/ps/profile?tab=security');
    const user = userEvent.setup();

    const list = await screen.findByRole('list', { name: 'Your sessions' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Chrome 156 on macOS Catalina'),
      expect.stringContaining('Safari 17 on iOS 17.4'),
    ]);
    expect(within(rows[0]!).getByText('This device')).toBeVisible();
    expect(within(rows[0]!).queryByRole('button')).toBeNull();
    expect(rows[1]).toHaveTextContent('198.51.100.2');

    await user.click(
      within(rows[1]!).getByRole('button', { name: 'Sign out Safari 17 on iOS 17.4' }),
    );
    expect(await screen.findByText('Safari 17 on iOS 17.4 is signed out.')).toBeVisible();
    expect(mock.callsTo(`DELETE /v1/user/sessions/${phone.id}/`)).toHaveLength(1);
    // The list is read again: one session left, nothing else to sign out.
    await within(list).findByText('Chrome 156 on macOS Catalina');
    expect(await screen.findByRole('button', { name: 'Sign out other sessions' })).toBeDisabled();
  });

  it('signs out every other session after asking', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      'GET /v1/user/sessions/': [pageOf([laptop, phone]), pageOf([laptop])],
      'POST /v1/user/sessions/revoke-others/': json({
        detail: '1 other session signed out.',
        revoked: 1,
      }),
    });
    signIn();
    renderApp('/ps/profile?tab=security');
    const user = userEvent.setup();

    await screen.findByRole('list', { name: 'Your sessions' });
    await user.click(screen.getByRole('button', { name: 'Sign out other sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out other sessions' }));
    expect(await screen.findByText('1 other session signed out.')).toBeVisible();
    expect(mock.callsTo('POST /v1/user/sessions/revoke-others/')).toHaveLength(1);
  });

  it('says a session had already ended, and a failed load with Try again', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      // A server error is tried once more before the card says so.
      'GET /v1/user/sessions/': [
        apiError(500, 'SERVER_ERROR', 'boom'),
        apiError(500, 'SERVER_ERROR', 'boom'),
        pageOf([laptop, phone]),
        pageOf([laptop]),
      ],
      [`DELETE /v1/user/sessions/${phone.id}/`]: apiError(404, 'NOT_FOUND', 'No such session.'),
    });
    signIn();
    renderApp('/ps/profile?tab=security');
    const user = userEvent.setup();

    const title = await screen.findByText(
      'Your sessions could not be loaded',
      {},
      { timeout: 3_000 },
    );
    const alert = title.closest<HTMLElement>('[role="alert"]')!;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    const list = await screen.findByRole('list', { name: 'Your sessions' });
    await user.click(within(list).getByRole('button', { name: /^Sign out Safari/ }));
    expect(await screen.findByText('That session had already ended.')).toBeVisible();
  });
});
