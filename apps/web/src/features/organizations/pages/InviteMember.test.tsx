import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { roleRef } from '../../../test/member-fixtures';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, ORG_ID, organization } from '../../../test/tenant-fixtures';

const INVITE = `POST /v1/organizations/${ORG_ID}/users/invitation/`;
const FORCE = `POST /v1/organizations/${ORG_ID}/users/force-invitation/`;
const USERS = `/ps/organization-settings/${ORG_ID}/users`;

const invited = (body: { email: string; role: 'STAFF' }, status = 'PENDING') => ({
  id: '2b3c4d5e-0000-4000-8000-000000000009',
  user: {
    id: '2b3c4d5e-0000-4000-8000-000000000010',
    email: body.email,
    first_name: '',
    last_name: '',
  },
  role: roleRef(body.role),
  status,
});

function inviteApi(role: 'OWNER' | 'ADMIN' | 'STAFF', extra: object = {}) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization(role)),
    [`GET /v1/organizations/${ORG_ID}/users/`]: json({
      count: 0,
      next: null,
      previous: null,
      results: [],
    }),
    ...extra,
  });
}

async function roleOptions() {
  await userEvent.setup().click(screen.getByRole('combobox', { name: /^Role/ }));
  const listbox = await screen.findByRole('listbox');
  return within(listbox)
    .getAllByRole('option')
    .map((o) => o.textContent);
}

describe('Inviting to an organization', () => {
  it('invites by e-mail with STAFF by default and optional names; back to the users list the role belongs to', async () => {
    const mock = inviteApi('OWNER', {
      [INVITE]: [
        apiError(409, 'ALREADY_MEMBER', 'This person is already a member of the organization.'),
        apiError(409, 'INVITATION_PENDING', 'Pending.'),
        (call: { body: unknown }) =>
          json(invited(call.body as { email: string; role: 'STAFF' }), 201),
      ],
    });
    signIn();
    const { location } = renderApp(`/ps/organizations/${ORG_ID}/invite`);
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Invite a member' })).toBeVisible();
    // Breadcrumbs: Organization Settings > Users > Invite.
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Organization Settings' })).toBeVisible();
    expect(within(crumbs).getByRole('link', { name: 'Users' })).toBeVisible();

    const email = await screen.findByRole('textbox', { name: /E-mail address/ });
    expect(screen.getByRole('combobox', { name: /^Role/ })).toHaveValue('Staff');
    expect(await roleOptions()).toEqual(['Owner', 'Admin', 'Staff', 'Client']);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Enter the e-mail address of the person.')).toBeVisible();
    expect(mock.callsTo(INVITE)).toHaveLength(0);

    await user.type(email, '  kim@example.com ');
    await user.type(screen.getByRole('textbox', { name: /First name/ }), 'Kim');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText(/already a member of the organization. Change their role/),
    ).toBeVisible();
    expect(email).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText(
        /already has a pending invitation to the organization. Send it again/,
      ),
    ).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText('An invitation has been sent to kim@example.com.'),
    ).toBeVisible();
    expect(mock.callsTo(INVITE)[2]?.body).toEqual({
      email: 'kim@example.com',
      role: 'STAFF',
      first_name: 'Kim',
    });
    await waitFor(() => expect(location()).toBe(`${USERS}/internal`));
  });

  it('an ADMIN cannot offer the Owner role; a 400 puts the server’s words on the field; a 403 says what to do', async () => {
    const mock = inviteApi('ADMIN', {
      [INVITE]: [
        apiError(400, 'VALIDATION_ERROR', 'Invalid.', [
          { field: 'body.email', message: 'Enter a valid e-mail address, please.' },
        ]),
        apiError(403, 'PERMISSION_DENIED', 'Your role cannot give the role Admin.'),
      ],
    });
    signIn();
    renderApp(`/ps/organizations/${ORG_ID}/invite`);
    const user = userEvent.setup();
    await screen.findByRole('textbox', { name: /E-mail address/ });
    expect(await roleOptions()).toEqual(['Admin', 'Staff', 'Client']);
    await user.click(await screen.findByRole('option', { name: 'Client' }));
    await user.type(screen.getByRole('textbox', { name: /E-mail address/ }), 'tim@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Enter a valid e-mail address, please.')).toBeVisible();
    expect(mock.callsTo(INVITE)[0]?.body).toEqual({ email: 'tim@example.com', role: 'CLIENT' });

    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /Your role does not allow giving this role or inviting here/,
    );
  });

  it('STAFF are told they cannot invite; no form', async () => {
    inviteApi('STAFF');
    signIn();
    renderApp(`/ps/organizations/${ORG_ID}/invite`);
    expect(await screen.findByText('You cannot invite members here')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: /E-mail address/ })).toBeNull();
  });

  it('adds a member at once with a password (the policy first); a client goes to the external users', async () => {
    const mock = inviteApi('OWNER', {
      [FORCE]: [
        apiError(400, 'WEAK_PASSWORD', 'This password is too common.', [
          { field: 'password', message: 'This password is too common.' },
        ]),
        json(
          {
            ...invited({ email: 'tim@example.com', role: 'STAFF' }, 'MEMBER'),
            role: roleRef('CLIENT'),
          },
          201,
        ),
      ],
    });
    signIn();
    const { location } = renderApp(`/ps/organizations/${ORG_ID}/add`);
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Add a member' })).toBeVisible();
    expect(await screen.findByText('They are added at once')).toBeVisible();
    expect(screen.getByText(/the e-mail does not contain it/)).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: /E-mail address/ }), 'tim@example.com');
    await user.click(screen.getByRole('combobox', { name: /^Role/ }));
    await user.click(await screen.findByRole('option', { name: 'Client' }));
    const password = screen.getByLabelText(/^Password/);
    await user.type(password, 'short');
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    expect(
      await screen.findByText(/at least/i, { selector: '.mantine-InputWrapper-error' }),
    ).toBeVisible();
    expect(mock.callsTo(FORCE)).toHaveLength(0);

    await user.clear(password);
    await user.type(password, 'harbour lights at dawn');
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('This password is too common.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    expect(
      await screen.findByText('tim@example.com has been added to the organization.'),
    ).toBeVisible();
    expect(mock.callsTo(FORCE)[1]?.body).toEqual({
      email: 'tim@example.com',
      role: 'CLIENT',
      password: 'harbour lights at dawn',
    });
    await waitFor(() => expect(location()).toBe(`${USERS}/external`));
  });
});
