import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { orgMember, people } from '../../../test/member-fixtures';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, ORG_ID, organization, page } from '../../../test/tenant-fixtures';

const BASE = `/ps/organization-settings/${ORG_ID}`;
const USERS = `GET /v1/organizations/${ORG_ID}/users/`;

const internal = [
  orgMember(people.ada, 'OWNER'),
  orgMember(people.grace, 'ADMIN', { client_count: 2 }),
  orgMember(people.ken, 'STAFF', { status: 'PENDING', last_active_at: null }),
];

function usersApi(role: 'OWNER' | 'ADMIN' | 'STAFF', users: unknown = page(internal)) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization(role)),
    [USERS]: json(users),
  });
}

const query = (url: string) => new URL(url, 'http://localhost').searchParams;

describe('Organization users', () => {
  it('internal users: name, e-mail, role, Pending, last active; roles=OWNER,ADMIN,STAFF, 10 a page', async () => {
    const mock = usersApi('OWNER');
    signIn();
    const { location } = renderApp(`${BASE}/users/internal`);
    const table = await screen.findByRole('table', { name: 'Internal users: 3' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByRole('link', { name: 'Ada Lovelace' })).toBeVisible();
    expect(within(rows[0]!).getByText('Owner')).toBeVisible();
    // Last active long ago: the day and time (a recent one reads "5 minutes ago": member-parts).
    expect(within(rows[0]!).getByText(/^03\/04\/2026 \d\d:\d\d$/)).toBeVisible();
    expect(within(rows[1]!).getByText('grace@example.com')).toBeVisible();
    expect(within(rows[1]!).getByText('Admin')).toBeVisible();
    // Without names the e-mail is the name; a pending invitation says so and was never active.
    expect(within(rows[2]!).getByRole('link', { name: 'ken@example.com' })).toBeVisible();
    expect(within(rows[2]!).getByText('Pending')).toBeVisible();
    expect(within(rows[2]!).getByText('Never')).toBeVisible();
    const first = query(mock.callsTo(USERS)[0]!.url);
    expect(first.get('roles')).toBe('OWNER,ADMIN,STAFF');
    expect(first.get('limit')).toBe('10');
    expect(first.get('page')).toBe('1');

    const user = userEvent.setup();
    await user.click(within(rows[1]!).getByRole('link', { name: 'Grace Hopper' }));
    await waitFor(() => expect(location()).toBe(`${BASE}/users/internal/${people.grace.id}`));
  });

  it('search and the role filter go to the query; pages past 10; a filter starts again at page 1', async () => {
    const mock = usersApi('OWNER', { ...page(internal), count: 25, next: 2 });
    signIn();
    renderApp(`${BASE}/users/internal`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(query(mock.callsTo(USERS).at(-1)!.url).get('page')).toBe('3'));

    await user.type(screen.getByRole('textbox', { name: 'Search internal users' }), 'grace');
    await waitFor(() => {
      const last = query(mock.callsTo(USERS).at(-1)!.url);
      expect(last.get('key')).toBe('grace');
      expect(last.get('page')).toBe('1');
    });

    await user.click(screen.getByPlaceholderText('All roles'));
    await user.click(await screen.findByRole('option', { name: 'Admin' }));
    await waitFor(() => {
      const last = query(mock.callsTo(USERS).at(-1)!.url);
      expect(last.get('roles')).toBe('ADMIN');
      expect(last.get('key')).toBe('grace');
    });
  });

  it('external users ask roles=CLIENT; none yet says so', async () => {
    const mock = usersApi('ADMIN', page([]));
    signIn();
    renderApp(`${BASE}/users/external`);
    expect(await screen.findByText('No external users yet')).toBeVisible();
    expect(query(mock.callsTo(USERS)[0]!.url).get('roles')).toBe('CLIENT');
    expect(screen.queryByPlaceholderText('All roles')).toBeNull();
  });

  describe('an organization fully owned by the caller (spec §6: every other member an active OWNER)', () => {
    /** The users list answered by its `roles`: these members, filtered as the API would. */
    const byRoles = (members: ReturnType<typeof orgMember>[]) => (call: { url: string }) => {
      const roles = (query(call.url).get('roles') ?? '').split(',');
      return json(page(members.filter((m) => roles.includes(m.role.key))));
    };
    const fullyOwnedApi = (role: 'OWNER' | 'ADMIN', members: ReturnType<typeof orgMember>[]) =>
      mockApi({
        'GET /v1/rest-auth/user/': json(adaWithView()),
        [`GET /v1/organizations/${ORG_ID}/`]: json(organization(role)),
        [USERS]: byRoles(members),
      });

    it.each([
      ['alone', [orgMember(people.ada, 'OWNER')], /only member/],
      [
        'with another active owner',
        [orgMember(people.ada, 'OWNER'), orgMember(people.grace, 'OWNER')],
        /Everyone else .* is an owner, as you are/,
      ],
    ])(
      '%s: says there is nobody else to manage, with Invite, instead of the table',
      async (_, members, text) => {
        fullyOwnedApi('OWNER', members);
        signIn();
        renderApp(`${BASE}/users/internal`);
        expect(await screen.findByText('Nobody else to manage yet')).toBeVisible();
        expect(screen.getByText(text)).toBeVisible();
        expect(screen.queryByRole('table')).toBeNull();
        expect(screen.queryByRole('textbox', { name: 'Search internal users' })).toBeNull();
        expect(screen.getByRole('link', { name: 'Invite' })).toHaveAttribute(
          'href',
          `/ps/organizations/${ORG_ID}/invite`,
        );
      },
    );

    it.each([
      ['a pending owner', orgMember(people.grace, 'OWNER', { status: 'PENDING' })],
      ['a staff member', orgMember(people.grace, 'STAFF')],
      ['an external user', orgMember(people.grace, 'CLIENT')],
    ])('shows the table when there is %s', async (_, other) => {
      fullyOwnedApi('OWNER', [orgMember(people.ada, 'OWNER'), other]);
      signIn();
      renderApp(`${BASE}/users/internal`);
      await screen.findByRole('table', { name: /Internal users/ });
      expect(screen.queryByText('Nobody else to manage yet')).toBeNull();
    });

    it('tells an admin whose every other member is an owner the same', async () => {
      fullyOwnedApi('ADMIN', [orgMember(people.ada, 'ADMIN'), orgMember(people.grace, 'OWNER')]);
      signIn();
      renderApp(`${BASE}/users/internal`);
      expect(await screen.findByText('Nobody else to manage yet')).toBeVisible();
      expect(screen.getByText(/Everyone else .* is an owner:/)).toBeVisible();
    });
  });

  it.each(['users', 'users/everyone'])('%s goes to the internal users', async (path) => {
    usersApi('OWNER');
    signIn();
    const { location } = renderApp(`${BASE}/${path}`);
    await waitFor(() => expect(location()).toBe(`${BASE}/users/internal`));
  });

  it.each([
    { role: 'OWNER', invite: true },
    { role: 'ADMIN', invite: true },
    { role: 'STAFF', invite: false },
  ] as const)(
    '$role: both users tabs; Invite and Add only when they manage members ($invite)',
    async ({ role, invite }) => {
      usersApi(role);
      signIn();
      renderApp(`${BASE}/users/internal`);
      await screen.findByRole('table', { name: /Internal users/ });
      const nav = screen.getByRole('navigation', { name: 'Organization settings' });
      expect(within(nav).getByRole('link', { name: 'Internal users' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      expect(within(nav).getByRole('link', { name: 'External users' })).toBeVisible();
      const inviteLink = screen.queryByRole('link', { name: 'Invite' });
      const addLink = screen.queryByRole('link', { name: 'Add' });
      if (invite) {
        expect(inviteLink).toHaveAttribute('href', `/ps/organizations/${ORG_ID}/invite`);
        expect(addLink).toHaveAttribute('href', `/ps/organizations/${ORG_ID}/add`);
      } else {
        expect(inviteLink).toBeNull();
        expect(addLink).toBeNull();
      }
    },
  );
});
