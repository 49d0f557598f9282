import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { people, roleRef } from '../../../test/member-fixtures';
import { renderApp, signIn } from '../../../test/render-app';
import {
  adaWithView,
  CLIENT_ID,
  ORG_ID,
  organization,
  page,
  workspace,
} from '../../../test/tenant-fixtures';

const API = `/v1/clients/${CLIENT_ID}/users`;
const SUGGEST = `GET ${API}/invitation/suggestion`;

const invited = (email: string, role: 'STAFF' | 'CLIENT', status = 'PENDING') => ({
  id: '2b3c4d5e-0000-4000-8000-000000000019',
  user: { id: people.grace.id, email, first_name: '', last_name: '' },
  role: roleRef(role),
  status,
});

function inviteApi(role: 'OWNER' | 'MANAGER' | 'STAFF', extra: object = {}) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace({ role })),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization('STAFF')),
    [`GET ${API}/`]: json(page([])),
    [SUGGEST]: (call: { url: string }) =>
      json(
        new URL(call.url, 'http://x').searchParams.get('key') === 'gr'
          ? [{ ...people.grace, avatar: null }]
          : [],
      ),
    ...extra,
  });
}

describe('Inviting to a workspace', () => {
  it('breadcrumbs Workspace Settings > Users; the e-mail suggests people; a manager gives roles up to Manager', async () => {
    const mock = inviteApi('MANAGER', {
      [`POST ${API}/invitation/`]: [
        apiError(409, 'ALREADY_MEMBER', 'Already.'),
        (call: { body: unknown }) =>
          json(invited((call.body as { email: string }).email, 'STAFF'), 201),
      ],
    });
    signIn();
    const { location } = renderApp(`/ps/users/${CLIENT_ID}/invite`);
    const user = userEvent.setup();
    const email = await screen.findByRole('combobox', { name: /E-mail address/ });
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Workspace Settings' })).toHaveAttribute(
      'href',
      `/ps/users/${CLIENT_ID}`,
    );
    expect(within(crumbs).getByRole('link', { name: 'Users' })).toBeVisible();
    expect(screen.getByText(/Invite someone to/)).toHaveTextContent('North Atlantic Transit');

    await user.type(email, 'gr');
    const option = await screen.findByRole('option', { name: /Grace Hopper/ });
    expect(option).toHaveTextContent('grace@example.com');
    await waitFor(() =>
      expect(mock.callsTo(SUGGEST).some((c) => c.url.includes('key=gr'))).toBe(true),
    );
    await user.click(option);
    expect(email).toHaveValue('grace@example.com');

    await user.click(screen.getByRole('combobox', { name: /^Role/ }));
    const listbox = await screen.findByRole('listbox', { name: /^Role/ });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Manager', 'Staff', 'Client']);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText(/already a member of the workspace/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText('An invitation has been sent to grace@example.com.'),
    ).toBeVisible();
    expect(mock.callsTo(`POST ${API}/invitation/`)[1]?.body).toEqual({
      email: 'grace@example.com',
      role: 'STAFF',
    });
    await waitFor(() => expect(location()).toBe(`/ps/client-settings/${CLIENT_ID}/user-list`));
  });

  it('adds a member at once (force-invitation with a password)', async () => {
    const mock = inviteApi('OWNER', {
      [`POST ${API}/force-invitation/`]: json(invited('tim@example.com', 'CLIENT', 'MEMBER'), 201),
    });
    signIn();
    renderApp(`/ps/users/${CLIENT_ID}/add`);
    const user = userEvent.setup();
    await user.type(
      await screen.findByRole('combobox', { name: /E-mail address/ }),
      'tim@example.com',
    );
    await user.click(screen.getByRole('combobox', { name: /^Role/ }));
    await user.click(await screen.findByRole('option', { name: 'Client' }));
    await user.type(screen.getByLabelText(/^Password/), 'harbour lights at dawn');
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    expect(
      await screen.findByText('tim@example.com has been added to the workspace.'),
    ).toBeVisible();
    expect(mock.callsTo(`POST ${API}/force-invitation/`)[0]?.body).toEqual({
      email: 'tim@example.com',
      role: 'CLIENT',
      password: 'harbour lights at dawn',
    });
  });

  it('STAFF of the workspace cannot invite; ps/users/:id goes to the user list', async () => {
    inviteApi('STAFF');
    signIn();
    const { location } = renderApp(`/ps/users/${CLIENT_ID}/invite`);
    expect(await screen.findByText('You cannot invite members here')).toBeVisible();
    expect(screen.queryByRole('combobox', { name: /E-mail address/ })).toBeNull();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Workspace Settings' }));
    await waitFor(() => expect(location()).toBe(`/ps/client-settings/${CLIENT_ID}/user-list`));
  });
});
