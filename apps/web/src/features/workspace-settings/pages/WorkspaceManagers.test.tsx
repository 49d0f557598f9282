import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, CLIENT_ID, workspace } from '../../../test/tenant-fixtures';

const DETAIL = `/ps/client-settings/${CLIENT_ID}/client-detail`;
const internalAda = { ...adaWithView(), is_internal: true, custom_shipment_template: false };
const withManagers = (role = 'OWNER', account: string | null = 'Ann Account') => ({
  ...workspace({ role }),
  account_manager: account,
  special_project_manager: null,
});

const section = async () => within(await screen.findByRole('region', { name: 'Account managers' }));

describe('Workspace account managers (internal staff only)', () => {
  it('an internal OWNER sees and changes them (PATCH with both, empty as null)', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(internalAda),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(withManagers()),
      [`PATCH /v1/clients/${CLIENT_ID}/`]: (call) =>
        json({ ...withManagers(), ...(call.body as object) }),
    });
    signIn();
    renderApp(DETAIL);
    const managers = await section();
    const account = managers.getByRole('textbox', { name: 'Account manager' });
    expect(account).toHaveValue('Ann Account');
    const projects = managers.getByRole('textbox', { name: 'Special project manager' });
    expect(projects).toHaveValue('');
    const user = userEvent.setup();
    await user.clear(account);
    await user.type(projects, '  Pia Projects ');
    await user.click(managers.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The managers have been saved.')).toBeVisible();
    expect(mock.callsTo(`PATCH /v1/clients/${CLIENT_ID}/`)[0]?.body).toEqual({
      account_manager: null,
      special_project_manager: 'Pia Projects',
    });
    await waitFor(() =>
      expect(managers.getByRole('button', { name: 'Save changes' })).toBeDisabled(),
    );
  });

  it('an internal STAFF member reads them only', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(internalAda),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(withManagers('STAFF')),
    });
    signIn();
    renderApp(DETAIL);
    const managers = await section();
    expect(managers.getByRole('textbox', { name: 'Account manager' })).toHaveAttribute('readonly');
    expect(managers.queryByRole('button', { name: 'Save changes' })).toBeNull();
  });

  it('is not there for anyone the server does not send them to', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace()),
    });
    signIn();
    renderApp(DETAIL);
    expect(await screen.findByRole('textbox', { name: /Workspace name/ })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Account managers' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Account manager' })).toBeNull();
  });

  it('puts a refusal of the server on the field it names', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(internalAda),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(withManagers()),
      [`PATCH /v1/clients/${CLIENT_ID}/`]: apiError(400, 'VALIDATION_ERROR', 'Invalid request.', [
        { field: 'account_manager', message: 'Remove control characters.' },
      ]),
    });
    signIn();
    renderApp(DETAIL);
    const managers = await section();
    const user = userEvent.setup();
    await user.type(managers.getByRole('textbox', { name: 'Account manager' }), ' Jr');
    await user.click(managers.getByRole('button', { name: 'Save changes' }));
    expect(await managers.findByText('Remove control characters.')).toBeVisible();
    expect(managers.getByRole('textbox', { name: 'Account manager' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });
});
