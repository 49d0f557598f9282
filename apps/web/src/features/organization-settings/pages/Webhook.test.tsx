import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { page } from '../../../test/tenant-fixtures';
import { BASE, delivery, endpoint, HOOKS, mockHooks, SECRET } from '../../../test/webhook-fixtures';
import { DeliveryLogMessages } from '../components/WebhookDeliveryLog';
import { WebhookMessages } from './WebhookPage';

const hook = endpoint();
const ONE = `${HOOKS}${hook.id}/`;
const LOG = `${ONE}deliveries/`;

const delivered = delivery();
const failed = delivery({
  id: '7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e',
  event_type: 'invitation.sent',
  status: 'failed',
  attempt_count: 2,
  completed_at: '2026-03-03T10:05:00.000Z',
  attempts: [
    {
      attempt: 1,
      attempted_at: '2026-03-03T10:00:00.000Z',
      status_code: 500,
      duration_ms: 312,
      response_excerpt: '{"error":"database down"}',
      error: null,
    },
    {
      attempt: 2,
      attempted_at: '2026-03-03T10:05:00.000Z',
      status_code: null,
      duration_ms: 10_000,
      response_excerpt: '',
      error: 'Timed out after 10 s.',
    },
  ],
});
const testDelivery = delivery({
  id: '8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f',
  event_type: 'webhook.test',
  status: 'pending',
  attempt_count: 0,
  next_attempt_at: '2026-03-03T11:00:00.000Z',
  completed_at: null,
  attempts: [],
});

function openEndpoint(handlers: Parameters<typeof mockHooks>[1]) {
  const mock = mockHooks('OWNER', {
    [`GET ${ONE}`]: json(hook),
    [`GET ${LOG}`]: json(page([failed, delivered])),
    ...handlers,
  });
  signIn();
  const view = renderApp(`${BASE}/webhooks/${hook.id}`);
  return { mock, view, user: userEvent.setup() };
}

const logRegion = () => screen.findByRole('region', { name: 'Delivery log' });

describe('Organization settings, a webhook endpoint', () => {
  it('shows the log; a delivery opens to its attempts; a failed one is sent again', async () => {
    const retried = { ...failed, status: 'pending' as const };
    const { mock, user } = openEndpoint({
      [`GET ${LOG}`]: [json(page([failed, delivered])), json(page([retried, delivered]))],
      [`POST ${HOOKS}deliveries/${failed.id}/retry/`]: json(retried, 202),
    });
    expect(await screen.findByRole('heading', { name: hook.url })).toBeVisible();
    const table = await within(await logRegion()).findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const [, first, second] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getAllByText('Failed')).toHaveLength(2);
    expect(within(first).getAllByText('No answer · 10000 ms')).toHaveLength(2);
    expect(within(second).getAllByText('Delivered')).toHaveLength(2);
    expect(within(second).queryByRole('button', { name: /^Retry/ })).toBeNull();

    const toggle = within(first).getByRole('button', { name: /^invitation\.sent/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const attempts = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(within(attempts).getByText('Attempt 1')).toBeVisible();
    expect(within(attempts).getByText('HTTP 500')).toBeVisible();
    expect(within(attempts).getByText('312 ms')).toBeVisible();
    expect(within(attempts).getByText('{"error":"database down"}')).toBeVisible();
    expect(within(attempts).getByText('Timed out after 10 s.')).toBeVisible();

    await user.click(within(first).getByRole('button', { name: /^Retry invitation\.sent/ }));
    expect(await screen.findByText(DeliveryLogMessages.retried('invitation.sent'))).toBeVisible();
    expect(mock.callsTo(`POST ${HOOKS}deliveries/${failed.id}/retry/`)).toHaveLength(1);
    // The log is read again: the delivery is pending, with no Retry any more.
    await waitFor(() => expect(within(table).getAllByText('Pending')).toHaveLength(2));
    expect(within(table).queryByRole('button', { name: /^Retry/ })).toBeNull();
  });

  it('sends a test event: a toast, and the log read again shows it', async () => {
    const { mock, user } = openEndpoint({
      [`GET ${LOG}`]: [json(page([])), json(page([testDelivery]))],
      [`POST ${ONE}test/`]: json(
        { event_id: testDelivery.event_id, delivery_id: testDelivery.id },
        202,
      ),
    });
    const log = await logRegion();
    expect(await within(log).findByText(/^No deliveries yet/)).toBeVisible();
    await user.click(within(log).getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByText(WebhookMessages.testSent)).toBeVisible();
    expect(mock.callsTo(`POST ${ONE}test/`)).toHaveLength(1);
    expect(await within(log).findByText('webhook.test')).toBeVisible();
    expect(within(log).getAllByText('Not sent yet')).toHaveLength(2);
  });

  it('reveals the secret, and rotates it after asking', async () => {
    const ROTATED = 'whsec_bmV3bmV3bmV3bmV3bmV3bmV3bmV3bmV3bmV3bmV3bmV3bg==';
    const { mock, user } = openEndpoint({
      [`GET ${ONE}secret/`]: json({ secret: SECRET }),
      [`POST ${ONE}rotate-secret/`]: json({ secret: ROTATED }),
    });
    const part = await screen.findByRole('region', { name: 'Signing secret' });
    expect(document.body).not.toHaveTextContent(SECRET);
    await user.click(within(part).getByRole('button', { name: 'Reveal secret' }));
    let shown = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(within(shown).getByRole('textbox', { name: 'Signing secret' })).toHaveValue(SECRET);
    expect(shown).toHaveTextContent(`Of ${hook.url}`);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.callsTo(`GET ${ONE}secret/`)).toHaveLength(1);

    await user.click(within(part).getByRole('button', { name: 'Rotate secret' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    expect(confirm).toHaveTextContent('keeps working beside it for 24 hours');
    await user.click(within(confirm).getByRole('button', { name: 'Rotate secret' }));
    shown = await screen.findByRole('dialog', { name: 'The new signing secret' });
    expect(within(shown).getByRole('textbox', { name: 'Signing secret' })).toHaveValue(ROTATED);
    expect(shown).toHaveTextContent('The previous secret keeps working for 24 hours');
    expect(mock.callsTo(`POST ${ONE}rotate-secret/`)).toHaveLength(1);
  });

  it('saves the settings and switches the endpoint off', async () => {
    const { mock, user } = openEndpoint({
      [`PATCH ${ONE}`]: [
        json(
          endpoint({
            description: 'ERP',
            events: ['member.added', 'member.removed', 'invoice.paid'],
          }),
        ),
        json(endpoint({ description: 'ERP', enabled: false })),
      ],
    });
    const form = await screen.findByRole('form', { name: 'Endpoint settings' });
    const description = within(form).getByRole('textbox', { name: /^Description/ });
    await user.clear(description);
    await user.type(description, 'ERP');
    await user.click(within(form).getByRole('checkbox', { name: 'invoice.paid' }));
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(mock.callsTo(`PATCH ${ONE}`)).toHaveLength(1));
    expect(mock.callsTo(`PATCH ${ONE}`)[0]!.body).toEqual({
      url: hook.url,
      description: 'ERP',
      events: ['member.added', 'member.removed', 'invoice.paid'],
    });

    await user.click(screen.getByRole('switch', { name: 'Send events to this endpoint' }));
    expect(await screen.findByText(WebhookMessages.switchedOff)).toBeVisible();
    expect(mock.callsTo(`PATCH ${ONE}`)[1]!.body).toEqual({ enabled: false });
    expect(await screen.findByText('Switched off')).toBeVisible();
  });

  it('deletes the endpoint after asking, back to the list', async () => {
    const { mock, view, user } = openEndpoint({
      [`DELETE ${ONE}`]: new Response(null, { status: 204 }),
      [`GET ${HOOKS}`]: json({ results: [] }),
    });
    const part = await screen.findByRole('region', { name: 'Delete endpoint' });
    await user.click(within(part).getByRole('button', { name: 'Delete endpoint' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this endpoint?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete endpoint' }));
    expect(await screen.findByText(WebhookMessages.deleted(hook.url))).toBeVisible();
    expect(mock.callsTo(`DELETE ${ONE}`)).toHaveLength(1);
    await waitFor(() => expect(view.router.state.location.pathname).toBe(`${BASE}/webhooks`));
    expect(await screen.findByText('No webhook endpoints yet')).toBeVisible();
  });
});
