import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { orgMember, people, roleRef } from '../../../test/member-fixtures';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, ORG_ID, organization, page } from '../../../test/tenant-fixtures';

const BASE = `/ps/organization-settings/${ORG_ID}`;
const API = `/v1/organizations/${ORG_ID}/users`;
type OrgRole = 'OWNER' | 'ADMIN' | 'STAFF';

function memberApi(myRole: OrgRole, member: ReturnType<typeof orgMember>, extra: object = {}) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization(myRole)),
    [`GET ${API}/${member.user.id}/`]: json(member),
    [`GET ${API}/`]: json(page([member])),
    ...extra,
  });
}

const roleBox = () => screen.findByRole('combobox', { name: 'Organization role' });

async function optionsOf(box: HTMLElement) {
  await userEvent.setup().click(box);
  const listbox = await screen.findByRole('listbox');
  return within(listbox)
    .getAllByRole('option')
    .map((o) => o.textContent);
}

describe('Organization member page', () => {
  it.each([
    { me: 'OWNER', them: 'STAFF', roles: ['Owner', 'Admin', 'Staff', 'Client'], remove: true },
    { me: 'ADMIN', them: 'STAFF', roles: ['Admin', 'Staff', 'Client'], remove: true },
    { me: 'STAFF', them: 'STAFF', roles: null, remove: false },
    { me: 'OWNER', them: 'OWNER', roles: ['Owner', 'Admin', 'Staff', 'Client'], remove: true },
    { me: 'ADMIN', them: 'OWNER', roles: null, remove: false },
    { me: 'STAFF', them: 'OWNER', roles: null, remove: false },
  ] as const)(
    '$me on a $them: the roles offered and the Remove button follow the contract',
    async ({ me, them, roles, remove }) => {
      const member = orgMember(people.linus, them);
      memberApi(me, member);
      signIn();
      renderApp(`${BASE}/users/internal/${people.linus.id}`);
      expect(await screen.findByText('linus@example.com')).toBeVisible();
      if (roles) {
        expect(await optionsOf(await roleBox())).toEqual(roles);
      } else {
        expect(screen.queryByRole('combobox', { name: 'Organization role' })).toBeNull();
        expect(
          screen.getByText(
            me === 'STAFF'
              ? /Your role does not allow changing or removing members/
              : /Your role cannot act on a member with this role/,
          ),
        ).toBeVisible();
      }
      expect(Boolean(screen.queryByRole('button', { name: 'Remove member' }))).toBe(remove);
      // Everyone who reads members reaches the workspace access.
      expect(screen.getByRole('link', { name: 'Workspace access' })).toHaveAttribute(
        'href',
        `/ps/organizations/${ORG_ID}/users/${people.linus.id}/client-access`,
      );
    },
  );

  it('the OWNER changes a role (PUT {role}); becoming a client moves them to the external list', async () => {
    const member = orgMember(people.linus, 'STAFF');
    const mock = memberApi('OWNER', member, {
      [`PUT ${API}/${people.linus.id}/role/`]: (call: { body: unknown }) =>
        json({ ...member, role: roleRef((call.body as { role: 'CLIENT' }).role) }),
    });
    signIn();
    const { location } = renderApp(`${BASE}/users/internal/${people.linus.id}`);
    const user = userEvent.setup();
    const change = await screen.findByRole('button', { name: 'Change role' });
    expect(change).toBeDisabled();
    await user.click(await roleBox());
    await user.click(await screen.findByRole('option', { name: 'Client' }));
    await user.click(change);
    expect(await screen.findByText('Linus Pauling is now Client.')).toBeVisible();
    expect(mock.callsTo(`PUT ${API}/${people.linus.id}/role/`)[0]?.body).toEqual({
      role: 'CLIENT',
    });
    await waitFor(() => expect(location()).toBe(`${BASE}/users/external/${people.linus.id}`));
  });

  it('a refused role change says what to do (409 LAST_OWNER)', async () => {
    const member = orgMember(people.linus, 'OWNER');
    memberApi('OWNER', member, {
      [`PUT ${API}/${people.linus.id}/role/`]: apiError(409, 'LAST_OWNER', 'Last owner.'),
    });
    signIn();
    renderApp(`${BASE}/users/internal/${people.linus.id}`);
    const user = userEvent.setup();
    await user.click(await roleBox());
    await user.click(await screen.findByRole('option', { name: 'Staff' }));
    await user.click(screen.getByRole('button', { name: 'Change role' }));
    expect(
      await screen.findByText('The organization needs an Owner: make another member Owner first.'),
    ).toBeVisible();
  });

  it('removing a member still in workspaces asks what happens to them and sends ?choice=', async () => {
    const member = orgMember(people.grace, 'ADMIN', { client_count: 2 });
    const mock = memberApi('OWNER', member, {
      [`DELETE ${API}/${people.grace.id}/`]: new Response(null, { status: 204 }),
    });
    signIn();
    const { location } = renderApp(`${BASE}/users/internal/${people.grace.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Grace Hopper?' });
    const group = within(dialog).getByRole('radiogroup', {
      name: /What happens to their workspaces/,
    });
    expect(within(group).getByRole('radio', { name: /Remove from every workspace/ })).toBeVisible();
    // Confirming before choosing sends nothing and says so.
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect(await within(dialog).findByText('Choose one of the options.')).toBeVisible();
    expect(mock.callsTo(`DELETE ${API}/${people.grace.id}/`)).toHaveLength(0);

    await user.click(
      within(group).getByRole('radio', {
        name: /Keep them in their workspaces as an external user/,
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    await waitFor(() => expect(mock.callsTo(`DELETE ${API}/${people.grace.id}/`)).toHaveLength(1));
    const url = new URL(mock.callsTo(`DELETE ${API}/${people.grace.id}/`)[0]!.url, 'http://x');
    expect(url.searchParams.get('choice')).toBe('keep_as_external');
    expect(await screen.findByText(/stays in their workspaces as an external user/)).toBeVisible();
    await waitFor(() => expect(location()).toBe(`${BASE}/users/internal`));
  });

  it('removing a member in no workspace is a plain confirmation, without a choice', async () => {
    const member = orgMember(people.linus, 'STAFF');
    const mock = memberApi('ADMIN', member, {
      [`DELETE ${API}/${people.linus.id}/`]: new Response(null, { status: 204 }),
    });
    signIn();
    renderApp(`${BASE}/users/internal/${people.linus.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Linus Pauling?' });
    expect(within(dialog).queryByRole('radiogroup')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect(
      await screen.findByText('Linus Pauling has been removed from the organization.'),
    ).toBeVisible();
    const url = new URL(mock.callsTo(`DELETE ${API}/${people.linus.id}/`)[0]!.url, 'http://x');
    expect(url.searchParams.has('choice')).toBe(false);
  });

  it('a pending member: no role change; resend and cancel the invitation', async () => {
    const member = orgMember(people.ken, 'STAFF', { status: 'PENDING' });
    const mock = memberApi('OWNER', member, {
      [`POST ${API}/${people.ken.id}/resend-invitation/`]: json(member),
      [`DELETE ${API}/${people.ken.id}/`]: new Response(null, { status: 204 }),
    });
    signIn();
    renderApp(`${BASE}/users/internal/${people.ken.id}`);
    const user = userEvent.setup();
    expect(await screen.findByText(/It can be changed once they accept it/)).toBeVisible();
    expect(screen.queryByRole('combobox', { name: 'Organization role' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove member' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Resend invitation' }));
    expect(
      await screen.findByText('The invitation has been sent again to ken@example.com.'),
    ).toBeVisible();
    expect(mock.callsTo(`POST ${API}/${people.ken.id}/resend-invitation/`)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Cancel invitation' }));
    const dialog = await screen.findByRole('dialog', { name: /Cancel the invitation/ });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel invitation' }));
    expect(
      await screen.findByText('The invitation of ken@example.com has been cancelled.'),
    ).toBeVisible();
    expect(mock.callsTo(`DELETE ${API}/${people.ken.id}/`)).toHaveLength(1);
  });

  it('an ADMIN may neither resend nor cancel an invitation to be an OWNER', async () => {
    memberApi('ADMIN', orgMember(people.ken, 'OWNER', { status: 'PENDING' }));
    signIn();
    renderApp(`${BASE}/users/internal/${people.ken.id}`);
    expect(await screen.findByText(/waits for an answer/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Resend invitation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel invitation' })).toBeNull();
  });

  it('someone who is not a member: said plainly', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/organizations/${ORG_ID}/`]: json(organization('OWNER')),
      [`GET ${API}/${people.linus.id}/`]: apiError(404, 'NOT_FOUND', 'Not a member.'),
    });
    signIn();
    renderApp(`${BASE}/users/internal/${people.linus.id}`);
    expect(await screen.findByText('Not a member of the organization')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to internal users' })).toBeVisible();
  });
});
