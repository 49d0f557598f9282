import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, ORG_ID, organization, page } from '../../../test/tenant-fixtures';

const BASE = `/ps/organization-settings/${ORG_ID}`;
const EXPORTS = `/v1/organizations/${ORG_ID}/data-exports/`;

describe('Organization settings, Data export', () => {
  it('lets an OWNER ask for the organization’s data from its own tab', async () => {
    const pending = {
      id: '5e1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      kind: 'ORGANIZATION',
      organization_id: ORG_ID,
      status: 'PENDING',
      file_name: null,
      size_bytes: null,
      error: null,
      created: '2026-05-04T09:30:00.000Z',
      completed: null,
      expires: null,
      is_expired: false,
      download_url: null,
    };
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/organizations/${ORG_ID}/`]: json(organization('OWNER')),
      [`GET ${EXPORTS}`]: [json(page([])), json(page([pending]))],
      [`POST ${EXPORTS}`]: json(pending, 202),
    });
    signIn();
    const { router } = renderApp(`${BASE}/detail`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Data export' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/data-export`));

    const section = await screen.findByRole('region', { name: 'Data export' });
    expect(await within(section).findByText('No exports yet')).toBeVisible();
    await user.click(within(section).getByRole('button', { name: 'Export organization data' }));
    expect(mock.callsTo(`POST ${EXPORTS}`)).toHaveLength(1);
    const table = await within(section).findByRole('table', { name: 'Organization data exports' });
    expect(within(table).getByText('Pending')).toBeVisible();
  });

  it.each(['ADMIN', 'STAFF'] as const)(
    'shows an %s no tab, and tells them on the page that only owners export',
    async (role) => {
      const mock = mockApi({
        'GET /v1/rest-auth/user/': json(adaWithView()),
        [`GET /v1/organizations/${ORG_ID}/`]: json(organization(role)),
      });
      signIn();
      renderApp(`${BASE}/data-export`);
      expect(await screen.findByText('Only owners export the organization’s data')).toBeVisible();
      expect(screen.queryByRole('link', { name: 'Data export' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Export organization data' })).toBeNull();
      expect(mock.callsTo(`GET ${EXPORTS}`)).toHaveLength(0);
    },
  );
});
