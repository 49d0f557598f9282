import { Messages } from '@portolan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import type { BellNotification } from '../api/notifications-api';
import { parseEvents } from '../api/stream';

const LIST = 'GET /v1/user/notification/';
const NEW = 'GET /v1/user/notification/new/';
const author = { id: 'u2', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' };

function notification(over: Partial<BellNotification> & { id: string }): BellNotification {
  return {
    type: 'WARNING',
    status: 'DONE',
    is_seen: true,
    extra_message: 'Your card expires soon.',
    created: new Date().toISOString(),
    meta: {},
    author: null,
    organization: null,
    client: null,
    ...over,
  };
}

const invitation = notification({
  id: 'n1',
  type: 'INVITATION',
  status: 'OPEN',
  is_seen: false,
  extra_message: null,
  author,
  meta: {
    invitation_token: 'tok-1',
    type: 'client',
    id: 'c1',
    role: 'STAFF',
    client: { id: 'c1', name: 'Harbour' },
  },
  client: { id: 'c1', name: 'Harbour' },
});
const warning = notification({ id: 'n2', is_seen: false, status: 'OPEN' });

function bellApi(extra: Record<string, unknown> = {}) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(ada),
    'GET /v1/me/organizations/and/clients/': json({ count: 0, results: [] }),
    [NEW]: json({ count: 2 }),
    [LIST]: json({ results: [invitation, warning], count: 2 }),
    ...(extra as Record<string, never>),
  });
}

async function openBell() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unseen' }));
  return { user, list: await screen.findByRole('list', { name: 'Notifications' }) };
}

describe('the notification bell', () => {
  it('shows the unseen count and the list; Accept verifies the workspace token, says so, marks seen', async () => {
    const mock = bellApi({
      'POST /v1/clients/users/invitation/accept/': json({
        detail: Messages.invitationAcceptedWorkspace,
        needs_password: false,
      }),
      'PUT /v1/user/notification/n1/is-seen/': json({ ...invitation, is_seen: true }),
    });
    signIn();
    renderApp('/ps/profile');
    const { user, list } = await openBell();
    expect(
      within(list).getByText('Grace Hopper invited you to join the workspace Harbour as Staff.'),
    ).toBeVisible();
    expect(within(list).getByText('Your card expires soon.')).toBeVisible();
    // An unseen OPEN invitation offers Accept and Decline; the unseen warning offers Read.
    expect(within(list).getAllByRole('button', { name: /^Mark as read/ })).toHaveLength(1);

    mock.on(NEW, json({ count: 1 }));
    await user.click(within(list).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(Messages.invitationAcceptedWorkspace)).toBeVisible();
    expect(mock.callsTo('POST /v1/clients/users/invitation/accept/')[0]?.body).toEqual({
      token: 'tok-1',
    });
    expect(mock.callsTo('PUT /v1/user/notification/n1/is-seen/')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unseen' })).toBeVisible();
    // The organizations and workspaces are loaded again.
    await waitFor(() =>
      expect(mock.callsTo('GET /v1/me/organizations/and/clients/').length).toBeGreaterThan(1),
    );
  });

  it('a failed verification says the §8 text', async () => {
    bellApi({
      'POST /v1/clients/users/invitation/accept/': apiError(
        409,
        'INVITATION_ALREADY_ACCEPTED',
        'Already accepted.',
      ),
    });
    signIn();
    renderApp('/ps/profile');
    const { user, list } = await openBell();
    await user.click(within(list).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(Messages.invitationVerifyFailed)).toBeVisible();
  });

  it('Decline calls the decline action, then marks seen', async () => {
    const mock = bellApi({
      'PUT /v1/user/notification/n1/is-seen/decline/': json({ ...invitation, status: 'DONE' }),
      'PUT /v1/user/notification/n1/is-seen/': json({ ...invitation, is_seen: true }),
    });
    signIn();
    renderApp('/ps/profile');
    const { user, list } = await openBell();
    await user.click(within(list).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('The invitation has been declined.')).toBeVisible();
    const order = mock.calls
      .filter((c) => c.method === 'PUT')
      .map((c) => c.path.replace('/v1/user/notification/n1/', ''));
    expect(order).toEqual(['is-seen/decline/', 'is-seen/']);
  });

  it('Read marks a notification seen', async () => {
    const mock = bellApi({
      'PUT /v1/user/notification/n2/is-seen/': json({ ...warning, is_seen: true }),
    });
    signIn();
    renderApp('/ps/profile');
    const { user, list } = await openBell();
    await user.click(within(list).getByRole('button', { name: /^Mark as read/ }));
    await waitFor(() =>
      expect(mock.callsTo('PUT /v1/user/notification/n2/is-seen/')).toHaveLength(1),
    );
  });

  it('says there is no message at all', async () => {
    bellApi({ [LIST]: json({ results: [], count: 0 }) });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unseen' }));
    expect(await screen.findByText(Messages.notificationsEmpty)).toBeVisible();
  });

  it('Load more appends the next 10', async () => {
    const first = Array.from({ length: 10 }, (_, i) => notification({ id: `m${i}` }));
    const second = Array.from({ length: 5 }, (_, i) => notification({ id: `p${i}` }));
    const mock = bellApi({
      [LIST]: (call: { url: string }) =>
        call.url.includes('page=2')
          ? json({ results: second, count: 15, next: null })
          : json({ results: first, count: 15, next: 2 }),
    });
    signIn();
    renderApp('/ps/profile');
    const { user, list } = await openBell();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(10));
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(15));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(mock.callsTo(LIST).map((c) => new URL(c.url, 'http://x').search)).toEqual([
      '?page=1&limit=10',
      '?page=2&limit=10',
    ]);
  });

  it('a failed load says "Get notification has problem, please try again."', async () => {
    bellApi({ [LIST]: apiError(500, 'INTERNAL_ERROR', 'boom') });
    signIn();
    renderApp('/ps/profile');
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Notifications, 2 unseen' }));
    expect((await screen.findAllByText(Messages.notificationLoadFailed)).length).toBeGreaterThan(0);
    // No §8 server-error toast for this silent call.
    expect(screen.queryByText(Messages.serverError)).toBeNull();
  });

  it('takes the count from the push stream', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode(': hello\n\nevent: notification\ndata: {"count":7}\n\n'),
        );
      },
    });
    const mock = bellApi({
      'GET /v1/user/notification/stream/': new Response(body, {
        headers: { 'Content-Type': 'text/event-stream' },
      }),
    });
    const token = signIn();
    renderApp('/ps/profile');
    expect(await screen.findByRole('button', { name: 'Notifications, 7 unseen' })).toBeVisible();
    expect(mock.callsTo('GET /v1/user/notification/stream/')[0]?.headers.get('authorization')).toBe(
      `Bearer ${token}`,
    );
  });
});

describe('parseEvents', () => {
  it('splits complete events, skips comments, and keeps the unfinished rest', () => {
    const { events, rest } = parseEvents(
      ': ping\n\nevent: notification\ndata: {"count":1}\n\ndata: a\ndata: b\n\nevent: notif',
    );
    expect(events).toEqual([
      { event: 'notification', data: '{"count":1}' },
      { event: 'message', data: 'a\nb' },
    ]);
    expect(rest).toBe('event: notif');
  });
});

describe('the bell’s BILLING notifications', () => {
  const billing = notification({
    id: 'n3',
    type: 'BILLING',
    status: 'OPEN',
    is_seen: false,
    extra_message: 'The balance of Demo Shipping Co. fell below $10.00.',
    meta: { kind: 'low_balance', path: '/ps/organization-settings/o1/billing/fund-packages' },
  });

  it('shows the message with a link to act on it; following it reads it and closes the bell', async () => {
    const mock = bellApi({
      [NEW]: json({ count: 2 }),
      [LIST]: json({
        results: [billing, notification({ ...billing, id: 'n4', meta: { path: '//evil.test' } })],
        count: 2,
      }),
      'PUT /v1/user/notification/n3/is-seen/': json({ ...billing, is_seen: true }),
    });
    signIn();
    const { location } = renderApp('/ps/profile');
    const { user, list } = await openBell();
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('The balance of Demo Shipping Co. fell below $10.00.');
    // Only a path of this app becomes a link.
    expect(within(items[1]!).queryByRole('link')).toBeNull();

    await user.click(within(items[0]!).getByRole('link', { name: 'Add funds' }));
    await waitFor(() =>
      expect(location()).toBe('/ps/organization-settings/o1/billing/fund-packages'),
    );
    await waitFor(() =>
      expect(mock.callsTo('PUT /v1/user/notification/n3/is-seen/')).toHaveLength(1),
    );
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Notifications' })).toBeNull());
  });
});
