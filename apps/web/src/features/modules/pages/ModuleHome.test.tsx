import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ids, orgList, page } from '../../../test/tenancy-fixtures';

const ME_ORGS = 'GET /v1/me/organizations/and/clients/';

/** Spec §1: the transit home says which shipment template the user's shipments use. */
describe('the transit module home', () => {
  it.each([
    [true, 'Custom shipment template'],
    [false, 'Standard shipment template'],
  ])('custom_shipment_template %s: "%s"', async (custom, label) => {
    mockApi({
      'GET /v1/rest-auth/user/': json({
        ...ada,
        custom_shipment_template: custom,
        is_internal: false,
      }),
      [ME_ORGS]: json(page(orgList())),
    });
    signIn();
    useAuthStore.setState({ ps_current_channel: { [ids.harbour]: 'TR' } });
    renderApp(`/tr/${ids.harbour}/home`);
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    const line = await screen.findByText(/Your shipments use the/);
    expect(line).toHaveTextContent(`Your shipments use the ${label}.`);
  });
});
