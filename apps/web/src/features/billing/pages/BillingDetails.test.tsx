import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { billingDetails, DETAILS } from '../money-ops-fixtures';
import { BILLING, billingHandlers, subscription } from '../test-fixtures';

async function openDetails() {
  signIn();
  renderApp(`${BILLING}/details`);
  const user = userEvent.setup();
  const form = await screen.findByRole('form', { name: 'Billing details' });
  return { user, form };
}

async function chooseCountry(
  user: ReturnType<typeof userEvent.setup>,
  form: HTMLElement,
  name: string,
) {
  const country = within(form).getByRole('combobox', { name: /Country/ });
  await user.click(country);
  await user.type(country, name);
  await user.click(await screen.findByRole('option', { name }));
}

describe('Billing details', () => {
  it('asks for the company, address and country, checks the tax ID for the country, then saves', async () => {
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [`GET ${DETAILS}`]: json(billingDetails()),
      [`PUT ${DETAILS}`]: json(
        billingDetails({
          company_name: 'Acme GmbH',
          address: 'Hafenstraße 1\n20457 Hamburg',
          country: 'DE',
          tax_id: 'DE123456789',
          updated: '2099-03-05T12:00:00.000Z',
        }),
      ),
    });
    const { user, form } = await openDetails();
    expect(within(form).getByRole('textbox', { name: 'Tax ID' })).toBeVisible();
    // Nothing saved yet: "Save changes" waits for a change.
    expect(within(form).getByRole('button', { name: 'Save changes' })).toBeDisabled();

    await user.type(within(form).getByRole('textbox', { name: 'Tax ID' }), 'x');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Give the company name.')).toBeVisible();
    expect(within(form).getByText('Give the address.')).toBeVisible();
    expect(within(form).getByText('Choose a country.')).toBeVisible();

    // Pasted rather than typed key by key: the form redraws on each key.
    await user.click(within(form).getByRole('textbox', { name: /Company name/ }));
    await user.paste('Acme GmbH');
    await user.click(within(form).getByRole('textbox', { name: /Address/ }));
    await user.paste('Hafenstraße 1\n20457 Hamburg');
    await chooseCountry(user, form, 'Germany');
    // The label names the country's tax ID and says how it is written.
    const taxId = within(form).getByRole('textbox', { name: 'Tax ID (VAT number)' });
    expect(form).toHaveTextContent('Written like DE123456789.');
    await user.clear(taxId);
    await user.type(taxId, 'DE 1234');
    await user.tab();
    expect(
      await within(form).findByText(
        'Not a valid VAT number for this country. It is written like DE123456789.',
      ),
    ).toBeVisible();
    expect(taxId).toHaveAttribute('aria-invalid', 'true');
    await user.type(taxId, '56789');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(
      await screen.findByText('The billing details are saved. Invoices from now on carry them.'),
    ).toBeVisible();
    expect(mock.callsTo(`PUT ${DETAILS}`)[0]?.body).toEqual({
      company_name: 'Acme GmbH',
      address: 'Hafenstraße 1\n20457 Hamburg',
      country: 'DE',
      tax_id: 'DE 123456789',
    });
    // The server's normalized number replaces what was typed.
    expect(taxId).toHaveValue('DE123456789');
    expect(form).toHaveTextContent('Last saved');
  });

  it('shows the server’s refusals on their fields', async () => {
    mockApi({
      ...billingHandlers(subscription()),
      [`GET ${DETAILS}`]: json(
        billingDetails({ company_name: 'Acme Inc.', address: '1 Main St', country: 'US' }),
      ),
      [`PUT ${DETAILS}`]: apiError(400, 'VALIDATION_ERROR', 'Check the billing details.', [
        { field: 'body.company_name', message: 'Write the name on one line.' },
      ]),
    });
    const { user, form } = await openDetails();
    expect(within(form).getByRole('textbox', { name: 'Tax ID (EIN)' })).toBeVisible();
    const name = within(form).getByRole('textbox', { name: /Company name/ });
    await user.type(name, ' Holdings');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Write the name on one line.')).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });
});
