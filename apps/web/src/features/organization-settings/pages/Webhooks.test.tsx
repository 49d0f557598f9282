import type { WebhookEndpointCreated } from '@portolan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { BASE, endpoint, HOOKS, mockHooks, SECRET } from '../../../test/webhook-fixtures';
import { WebhookFormMessages } from '../components/WebhookFields';

const erp = endpoint({
  events: ['member.added', 'member.removed', 'invitation.sent', 'workspace.created'],
  failing_since: '2026-03-04T08:00:00.000Z',
});
const crm = endpoint({
  id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
  url: 'https://crm.example.com/in',
  description: '',
  events: ['invoice.paid'],
  enabled: false,
  disabled_reason: 'Every delivery failed for 5 days.',
});

const region = () => screen.findByRole('region', { name: 'Webhooks' });
const addDialog = () => screen.findByRole('dialog', { name: 'Add endpoint' });

describe('Organization settings, webhooks', () => {
  it('lists the endpoints from their tab: URL, description, events, failing or switched off', async () => {
    mockHooks('ADMIN', { [`GET ${HOOKS}`]: json({ results: [erp, crm] }) });
    signIn();
    const { router } = renderApp(`${BASE}/detail`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Webhooks' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/webhooks`));

    const table = await within(await region()).findByRole('table');
    const [, first, second] = within(table).getAllByRole('row') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    // Each detail is said twice: in its column and, for a phone, under the URL.
    expect(within(first).getByRole('link', { name: erp.url })).toHaveAttribute(
      'href',
      `${BASE}/webhooks/${erp.id}`,
    );
    expect(within(first).getByText('ERP sync')).toBeVisible();
    expect(within(first).getAllByText('member.added')).toHaveLength(2);
    expect(within(first).getAllByText('+1 more (4 events)')).toHaveLength(2);
    expect(within(first).getAllByText('Failing')).toHaveLength(2);
    expect(within(second).getAllByText('Switched off by Portolan')).toHaveLength(2);
    expect(within(second).getAllByText('Every delivery failed for 5 days.')).toHaveLength(2);
    expect(within(second).getAllByText('invoice.paid')).toHaveLength(2);
  });

  it('explains webhooks when there are none, and offers to add one', async () => {
    mockHooks('OWNER', { [`GET ${HOOKS}`]: json({ results: [] }) });
    signIn();
    renderApp(`${BASE}/webhooks`);
    const section = await region();
    expect(await within(section).findByText('No webhook endpoints yet')).toBeVisible();
    expect(section).toHaveTextContent('each event is sent to its URL as a signed POST request');
    expect(within(section).queryByRole('table')).toBeNull();
    await userEvent.setup().click(within(section).getByRole('button', { name: 'Add endpoint' }));
    expect(await addDialog()).toBeVisible();
  });

  it('adds an endpoint with the events chosen and shows its secret, with copy', async () => {
    const created: WebhookEndpointCreated = {
      ...endpoint({
        url: 'https://hooks.example.com/in',
        description: 'Billing',
        events: ['invitation.sent', 'invitation.accepted', 'invitation.declined', 'invoice.paid'],
      }),
      secret: SECRET,
    };
    const { secret: _secret, ...listed } = created;
    const mock = mockHooks('OWNER', {
      [`GET ${HOOKS}`]: [json({ results: [] }), json({ results: [listed] })],
      [`POST ${HOOKS}`]: json(created, 201),
    });
    signIn();
    renderApp(`${BASE}/webhooks`);
    const user = userEvent.setup();
    await user.click(await within(await region()).findByRole('button', { name: 'Add endpoint' }));

    const dialog = await addDialog();
    // Nothing filled in: each field says what it needs, and nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText(WebhookFormMessages.url)).toBeVisible();
    expect(within(dialog).getByText(WebhookFormMessages.events)).toBeVisible();
    await user.type(within(dialog).getByRole('textbox', { name: /^URL/ }), 'ftp://x');
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText(WebhookFormMessages.urlFormat)).toBeVisible();
    expect(mock.callsTo(`POST ${HOOKS}`)).toHaveLength(0);

    const url = within(dialog).getByRole('textbox', { name: /^URL/ });
    await user.clear(url);
    await user.type(url, ' https://hooks.example.com/in ');
    await user.type(within(dialog).getByRole('textbox', { name: /^Description/ }), 'Billing');
    // Each event says what it means; a group is chosen whole, or one event at a time.
    const invoices = within(dialog).getByRole('group', { name: 'Invoices' });
    expect(
      within(invoices).getByRole('checkbox', { name: 'invoice.paid' }),
    ).toHaveAccessibleDescription('An invoice was paid.');
    await user.click(within(invoices).getByRole('checkbox', { name: 'invoice.paid' }));
    await user.click(within(dialog).getByRole('button', { name: 'Select all Invitations' }));
    expect(within(dialog).getByRole('button', { name: 'Clear Invitations' })).toBeVisible();
    expect(within(dialog).queryByRole('checkbox', { name: 'webhook.test' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));

    const shown = await screen.findByRole('dialog', { name: 'Endpoint added: its signing secret' });
    // The events in the catalogue's order, whatever the order of the clicks.
    expect(mock.callsTo(`POST ${HOOKS}`).map((c) => c.body)).toEqual([
      {
        url: 'https://hooks.example.com/in',
        description: 'Billing',
        events: ['invitation.sent', 'invitation.accepted', 'invitation.declined', 'invoice.paid'],
      },
    ]);
    expect(shown).toHaveTextContent('Copy the secret now');
    expect(within(shown).getByRole('textbox', { name: 'Signing secret' })).toHaveValue(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(screen.queryByRole('dialog', { name: 'Add endpoint' })).toBeNull();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The list has the new endpoint, never its secret.
    expect(await screen.findByRole('link', { name: 'https://hooks.example.com/in' })).toBeVisible();
    expect(document.body).not.toHaveTextContent(SECRET);
  });

  it('puts the server’s field errors on their fields (400) and keeps the form', async () => {
    const mock = mockHooks('OWNER', {
      [`GET ${HOOKS}`]: json({ results: [] }),
      [`POST ${HOOKS}`]: apiError(400, 'VALIDATION_ERROR', 'Check the fields.', [
        { field: 'url', message: 'This is a private, loopback or link-local address.' },
        { field: 'events.0', message: 'Choose events from the catalogue.' },
      ]),
    });
    signIn();
    renderApp(`${BASE}/webhooks`);
    const user = userEvent.setup();
    await user.click(await within(await region()).findByRole('button', { name: 'Add endpoint' }));
    const dialog = await addDialog();
    await user.type(within(dialog).getByRole('textbox', { name: /^URL/ }), 'http://10.0.0.1/in');
    await user.click(within(dialog).getByRole('checkbox', { name: 'balance.low' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));

    expect(
      await within(dialog).findByText('This is a private, loopback or link-local address.'),
    ).toBeVisible();
    expect(within(dialog).getByRole('textbox', { name: /^URL/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(within(dialog).getByText('Choose events from the catalogue.')).toBeVisible();
    expect(mock.callsTo(`POST ${HOOKS}`)).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: /signing secret/ })).toBeNull();
    expect(within(dialog).getByRole('checkbox', { name: 'balance.low' })).toBeChecked();
  });

  it('shows a load failure with a way to try again', async () => {
    const mock = mockHooks('OWNER', {
      [`GET ${HOOKS}`]: [apiError(400, 'BAD_REQUEST', 'Nope.'), json({ results: [erp] })],
    });
    signIn();
    renderApp(`${BASE}/webhooks`);
    const section = await region();
    expect(
      await within(section).findByText('The webhook endpoints could not be loaded'),
    ).toBeVisible();
    await userEvent.setup().click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByText('ERP sync')).toBeVisible();
    expect(mock.callsTo(`GET ${HOOKS}`)).toHaveLength(2);
  });

  it('shows a STAFF member no tab and no endpoints', async () => {
    const mock = mockHooks('STAFF', {});
    signIn();
    renderApp(`${BASE}/webhooks`);
    expect(await screen.findByText('Only owners and admins manage webhooks')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Webhooks' })).toBeNull();
    expect(mock.callsTo(`GET ${HOOKS}`)).toHaveLength(0);
  });
});
