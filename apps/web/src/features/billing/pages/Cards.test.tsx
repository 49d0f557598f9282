import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { BILLING, billingHandlers, CARD_CHANGE, CARDS, subscription } from '../test-fixtures';

const visa = {
  id: '5d000000-0000-4000-8000-000000000001',
  brand: 'visa',
  last4: '4242',
  exp_month: 12,
  exp_year: 2030,
  is_default: true,
};
const amex = {
  id: '5d000000-0000-4000-8000-000000000002',
  brand: 'amex',
  last4: '0005',
  exp_month: 3,
  exp_year: 2031,
  is_default: false,
};
const odd = {
  ...amex,
  id: '5d000000-0000-4000-8000-000000000003',
  brand: 'unknown',
  last4: '1111',
};

describe('Billing cards', () => {
  it('names each card by brand, last digits and expiry; makes one the default', async () => {
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: json({ default_payment_method: visa.id, results: [visa, amex, odd] }),
      [`POST ${CARD_CHANGE}`]: json({ default_payment_method: amex.id }),
    });
    signIn();
    renderApp(`${BILLING}/cards`);
    const list = await screen.findByRole('list', { name: 'Cards' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual([
      'Visa ending in 4242, expires 12/2030',
      'American Express ending in 0005, expires 03/2031',
      'Card ending in 1111, expires 03/2031',
    ]);
    expect(within(items[0]!).getByText('Default')).toBeVisible();
    expect(within(items[0]!).queryByRole('button', { name: /Make/ })).toBeNull();

    const user = userEvent.setup();
    await user.click(
      screen.getByRole('button', {
        name: 'Make American Express ending in 0005, expires 03/2031 the default card',
      }),
    );
    expect(
      await screen.findByText('American Express ending in 0005 is now the default card.'),
    ).toBeVisible();
    expect(mock.callsTo(`POST ${CARD_CHANGE}`)[0]?.body).toEqual({ payment_method_id: amex.id });
  });

  it('removes a card after confirming; the default one in use is refused with the reason', async () => {
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: json({ default_payment_method: visa.id, results: [visa, amex] }),
      [`DELETE ${CARD_CHANGE}`]: (call) =>
        (call.body as { payment_method_id: string }).payment_method_id === visa.id
          ? apiError(409, 'DEFAULT_CARD_IN_USE', 'The default card pays for the subscription.')
          : new Response(null, { status: 204 }),
    });
    signIn();
    renderApp(`${BILLING}/cards`);
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', {
        name: 'Remove American Express ending in 0005, expires 03/2031',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove this card?' });
    expect(mock.callsTo(`DELETE ${CARD_CHANGE}`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove card' }));
    expect(await screen.findByText('American Express ending in 0005 was removed.')).toBeVisible();
    expect(mock.callsTo(`DELETE ${CARD_CHANGE}`)[0]?.body).toEqual({ payment_method_id: amex.id });

    await user.click(
      screen.getByRole('button', { name: 'Remove Visa ending in 4242, expires 12/2030' }),
    );
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove this card?' })).getByRole('button', {
        name: 'Remove card',
      }),
    );
    expect(await screen.findByText('The default card pays for the subscription.')).toBeVisible();
    await waitFor(() => expect(mock.callsTo(`DELETE ${CARD_CHANGE}`)).toHaveLength(2));
  });
});
