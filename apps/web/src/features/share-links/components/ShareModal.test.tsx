import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, apiError, json, mockApi, type Reply } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ids, orgList, page } from '../../../test/tenancy-fixtures';

const ME_ORGS = 'GET /v1/me/organizations/and/clients/';
const LINKS = `/v1/clients/${ids.harbour}/share-links/`;
const TOKEN = 'Abcdefghijklmnopqrstuvwxyz0123456789_-ABCDE';

const olive = {
  id: '5f000000-0000-4000-8000-000000000002',
  email: 'olive@example.com',
  first_name: 'Olive',
  last_name: 'Owner',
};

function link(over: Partial<Record<string, unknown>> = {}) {
  return {
    id: '5e000000-0000-4000-8000-000000000001',
    module: 'TR',
    module_name: '2D Transit',
    created_by: olive,
    created_at: '2030-06-01T12:00:00.000Z',
    expires_at: null,
    revoked_at: null,
    last_opened_at: null,
    status: 'ACTIVE',
    ...over,
  };
}

/** Harbour's TR home, for Ada (OWNER of Acme: Harbour, dock) or with her role in Harbour changed. */
function openHome(role: 'OWNER' | 'CLIENT' = 'OWNER', extra: Record<string, Reply | Reply[]> = {}) {
  const list = orgList();
  const acme = list[1]!;
  if (role === 'CLIENT') {
    acme.organization.role = { key: 'CLIENT', name: 'Client' };
    acme.clients[0]!.role = { key: 'CLIENT', name: 'Client' };
  }
  const mock = mockApi({
    'GET /v1/rest-auth/user/': json(ada),
    [ME_ORGS]: json(page(list)),
    [`GET /v1/clients/${ids.harbour}/users/${ada.user_id}/settings/`]: json({
      role: { key: role, name: role },
      client_modules: [{ module: 'TR', enabled: true }],
      client_information: { name: 'Harbour' },
    }),
    ...extra,
  });
  signIn();
  useAuthStore.setState({ ps_current_channel: { [ids.harbour]: 'TR' } });
  renderApp(`/tr/${ids.harbour}/home`);
  return mock;
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Share' }));
  return screen.findByRole('dialog', { name: 'Share 2D Transit' });
}

describe('the Share dialog of a module home', () => {
  it('creates a link expiring in 7 days, shows it once with Copy, and lists it', async () => {
    const created = {
      ...link({
        id: '5e000000-0000-4000-8000-000000000009',
        expires_at: '2030-06-08T12:00:00.000Z',
      }),
      token: TOKEN,
      url: `http://localhost:3000/share/${TOKEN}`,
    };
    const mock = openHome('OWNER', {
      [`GET ${LINKS}`]: [json(page([link()])), json(page([created, link()]))],
      [`POST ${LINKS}`]: json(created, 201),
    });
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    const list = await within(dialog).findByRole('list', { name: 'Links of this workspace' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByText('Active')).toBeVisible();
    expect(
      within(list).getByText(
        /Shared by Olive Owner on 06\/01\/2030 · never expires · not opened yet/,
      ),
    ).toBeVisible();

    await user.click(within(dialog).getByRole('radio', { name: '7 days' }));
    const before = Date.now();
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    const field = await within(dialog).findByRole('textbox', { name: 'Share link' });
    expect(field).toHaveValue(`http://localhost:3000/share/${TOKEN}`);
    expect(field).toHaveAttribute('readonly');
    expect(within(dialog).getByText(/the link is shown only once/)).toBeVisible();
    const body = mock.callsTo(`POST ${LINKS}`)[0]!.body as { module: string; expires_at: string };
    expect(body.module).toBe('TR');
    const sevenDays = 7 * 86_400_000;
    expect(new Date(body.expires_at).getTime()).toBeGreaterThanOrEqual(before + sevenDays);
    expect(new Date(body.expires_at).getTime()).toBeLessThanOrEqual(Date.now() + sevenDays);

    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await navigator.clipboard.readText()).toBe(`http://localhost:3000/share/${TOKEN}`);
    expect(within(dialog).getByText('The link is copied to the clipboard.')).toBeInTheDocument();

    // The list was read again: the new link is in it (its token never is).
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));

    // Closing forgets the link: opened again, the form is back.
    await user.click(within(dialog).getByRole('button', { name: 'Close dialog' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const again = await openDialog(user);
    expect(within(again).queryByRole('textbox', { name: 'Share link' })).toBeNull();
    expect(within(again).getByRole('button', { name: 'Create link' })).toBeVisible();
  });

  it('sends no expiry for Never, the end of the chosen day for a date, and checks the date', async () => {
    const mock = openHome('OWNER', {
      [`GET ${LINKS}`]: json(page([])),
      [`POST ${LINKS}`]: json({ ...link(), token: TOKEN, url: `/share/${TOKEN}` }, 201),
    });
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    expect(
      await within(dialog).findByText('Nobody has shared a page of this workspace yet.'),
    ).toBeVisible();

    await user.click(within(dialog).getByRole('radio', { name: 'On a date' }));
    const date = within(dialog).getByLabelText(/Expiry date/);
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('Choose the day the link expires.')).toBeVisible();
    await user.type(date, '2001-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('Choose today or a later day.')).toBeVisible();
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(mock.callsTo(`POST ${LINKS}`)).toHaveLength(0);

    const inTenDays = new Date(Date.now() + 10 * 86_400_000);
    const day = `${inTenDays.getFullYear()}-${String(inTenDays.getMonth() + 1).padStart(2, '0')}-${String(inTenDays.getDate()).padStart(2, '0')}`;
    await user.clear(date);
    await user.type(date, day);
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await within(dialog).findByRole('textbox', { name: 'Share link' });
    const sent = mock.callsTo(`POST ${LINKS}`)[0]!.body as { expires_at: string };
    const end = new Date(sent.expires_at);
    expect(end.getDate()).toBe(inTenDays.getDate());
    expect([end.getHours(), end.getMinutes()]).toEqual([23, 59]);

    await user.click(within(dialog).getByRole('button', { name: 'Create another link' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Never' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await within(dialog).findByRole('textbox', { name: 'Share link' });
    expect(mock.callsTo(`POST ${LINKS}`)[1]!.body).toEqual({ module: 'TR', expires_at: null });
  });

  it('says why a link could not be made: the limit, an expiry the server refused', async () => {
    openHome('OWNER', {
      [`GET ${LINKS}`]: json(page([])),
      [`POST ${LINKS}`]: [
        apiError(
          409,
          'SHARE_LINK_LIMIT',
          'This workspace already has 50 live share links. Revoke one before making another.',
          { limit: 50 },
        ),
        apiError(400, 'VALIDATION_ERROR', 'Invalid', [
          { field: 'expires_at', message: 'A link can expire at most 365 days ahead.' },
        ]),
      ],
    });
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This workspace already has 50 live share links.',
    );
    await user.click(within(dialog).getByRole('radio', { name: '30 days' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(
      await within(dialog).findByText('A link can expire at most 365 days ahead.'),
    ).toBeVisible();
  });

  it('revokes a link after confirming in place, and keeps it when told so', async () => {
    const mock = openHome('OWNER', {
      [`GET ${LINKS}`]: [
        json(
          page([
            link(),
            link({
              id: '5e000000-0000-4000-8000-000000000002',
              status: 'REVOKED',
              revoked_at: '2030-06-02T00:00:00.000Z',
            }),
          ]),
        ),
        json(page([link({ status: 'REVOKED', revoked_at: '2030-06-03T00:00:00.000Z' })])),
      ],
      [`DELETE ${LINKS}5e000000-0000-4000-8000-000000000001/`]: new Response(null, {
        status: 204,
      }),
    });
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    const list = await within(dialog).findByRole('list', { name: 'Links of this workspace' });
    const [active, revoked] = within(list).getAllByRole('listitem');
    expect(within(revoked!).getByText('Revoked')).toBeVisible();
    expect(within(revoked!).queryByRole('button', { name: /Revoke/ })).toBeNull();

    const revoke = within(active!).getByRole('button', {
      name: 'Revoke the 2D Transit link shared by Olive Owner on 06/01/2030',
    });
    await user.click(revoke);
    const confirm = within(active!).getByRole('group', { name: 'Confirm the revocation' });
    expect(within(confirm).getByRole('button', { name: 'Yes, revoke' })).toHaveFocus();
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(mock.callsTo(`DELETE ${LINKS}5e000000-0000-4000-8000-000000000001/`)).toHaveLength(0);

    await user.click(
      within(active!).getByRole('button', {
        name: 'Revoke the 2D Transit link shared by Olive Owner on 06/01/2030',
      }),
    );
    await user.click(within(active!).getByRole('button', { name: 'Yes, revoke' }));
    expect(await screen.findByText('The link is revoked: it no longer opens.')).toBeVisible();
    expect(mock.callsTo(`DELETE ${LINKS}5e000000-0000-4000-8000-000000000001/`)).toHaveLength(1);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
  });

  it('calls a member’s list "Your links"; shows a failed list with Retry', async () => {
    openHome('CLIENT', {
      [`GET ${LINKS}`]: [
        // The query client tries a 5xx twice.
        apiError(500, 'INTERNAL_ERROR', 'Boom'),
        apiError(500, 'INTERNAL_ERROR', 'Boom'),
        json(page([])),
      ],
    });
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    expect(await within(dialog).findByText('The share links could not be loaded')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('You have not shared a link yet.')).toBeVisible();
    expect(within(dialog).getByRole('heading', { name: 'Your links' })).toBeVisible();
  });
});
