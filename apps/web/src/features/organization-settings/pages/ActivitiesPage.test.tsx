import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, ORG_ID, organization, page } from '../../../test/tenant-fixtures';

const ada = { id: 'u1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };
const activity = (n: number, action: string, data: Record<string, unknown>) => ({
  id: `a${n}`,
  user: ada,
  action,
  object_id: ORG_ID,
  object_type: 'organization',
  data,
  created: '2026-11-27T12:00:00.000Z',
});

describe('Activities: the money settings (issue 22)', () => {
  it('name each change and show its new value beside the one it replaced', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/organizations/${ORG_ID}/`]: json(organization('OWNER')),
      [`GET /v1/organizations/${ORG_ID}/activities/`]: json(
        page([
          activity(1, 'UPDATE_SPEND_CAP', {
            scope: 'client',
            client_name: 'Harbour',
            monthly_limit: 5000,
            previous_monthly_limit: null,
            currency: 'usd',
          }),
          activity(2, 'UPDATE_SPEND_CAP', {
            scope: 'organization',
            monthly_limit: null,
            previous_monthly_limit: 90000,
            currency: 'usd',
          }),
          activity(3, 'UPDATE_BALANCE_ALERTS', {
            thresholds: [2500, 1000],
            previous_thresholds: [],
            currency: 'usd',
          }),
          activity(4, 'UPDATE_AUTO_TOP_UP', {
            enabled: true,
            threshold: 2000,
            fund_package_id: 'p1',
            previous_enabled: false,
            currency: 'usd',
          }),
          activity(5, 'UPDATE_BILLING_DETAILS', {
            company_name: 'Acme Logistik GmbH',
            country: 'DE',
            tax_id: 'DE123456789',
          }),
        ]),
      ),
    });
    signIn();
    renderApp(`/ps/organization-settings/${ORG_ID}/activities`);

    // Each row's details show twice: in their column, and under the action on a phone.
    const details = async (text: string) =>
      expect(await within(screen.getByRole('table')).findAllByText(text)).toHaveLength(2);
    await screen.findByRole('table');
    await details('Harbour · monthly limit $50.00 (was none)');
    await details('monthly limit none (was $900.00)');
    await details('below $25.00, $10.00');
    await details('on · below $20.00');
    await details('Acme Logistik GmbH · DE · DE123456789');
    const table = screen.getByRole('table');
    expect(within(table).getAllByText('Changed a spend cap')).toHaveLength(2);
    for (const label of [
      'Changed the low-balance alerts',
      'Changed auto top-up',
      'Changed the billing details',
    ])
      expect(within(table).getByText(label)).toBeInTheDocument();
  });
});
