import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, type Reply } from '../../../test/api-mock';
import { pressAndConfirm } from '../../../test/dialogs';
import { catalogue, RULE_IDS, rules } from '../../../test/permission-fixtures';
import { renderApp, signIn } from '../../../test/render-app';
import {
  adaWithView,
  CLIENT_ID,
  ORG_ID,
  organization,
  page,
  workspace,
} from '../../../test/tenant-fixtures';

const ORG_PAGES = `/ps/organization-settings/${ORG_ID}/access-rules`;
const ORG_API = `/v1/organizations/${ORG_ID}`;
const WS_PAGES = `/ps/client-settings/${CLIENT_ID}/access-rules`;
const WS_API = `/v1/clients/${CLIENT_ID}`;

function orgApi(role: 'OWNER' | 'ADMIN' | 'STAFF', extra: Record<string, Reply | Reply[]> = {}) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET ${ORG_API}/`]: json(organization(role)),
    [`GET ${ORG_API}/permissions/catalogue/`]: json(catalogue()),
    ...extra,
  });
}

function workspaceApi(role: string, extra: Record<string, Reply | Reply[]> = {}) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET ${WS_API}/`]: json(workspace({ role })),
    [`GET ${WS_API}/permissions/catalogue/`]: json(catalogue()),
    ...extra,
  });
}

/** The three-way control of one permission. */
const control = (name: string) => screen.getByRole('radiogroup', { name });

describe('Access rules', () => {
  it('lists a workspace’s rules and its organization’s: module, allow and deny counts, badges; search; the tab', async () => {
    const mock = workspaceApi('MANAGER', {
      [`GET ${WS_API}/access-rules/`]: json(
        page([rules.orgWide, rules.labels, rules.system, rules.packing]),
      ),
    });
    signIn();
    renderApp(WS_PAGES);
    const table = await screen.findByRole('table', { name: /Access rules/ });
    const row = (name: string) => within(table).getByRole('row', { name: new RegExp(name) });
    expect(row('Packing floor')).toHaveTextContent('2D Transit');
    expect(row('Packing floor')).toHaveTextContent('2 allow');
    expect(row('Packing floor')).toHaveTextContent('1 deny');
    expect(row('Label printing')).toHaveTextContent('Every module');
    expect(within(row('Head office')).getByText('Organization')).toBeVisible();
    expect(within(row('Made by the system')).getByText('System')).toBeVisible();
    expect(mock.callsTo(`GET ${WS_API}/access-rules/`)[0]?.url).toContain('limit=999');
    // A manager manages the workspace's rules: the tab and New are there.
    expect(screen.getByRole('link', { name: 'Access rules' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.getByRole('link', { name: 'New access rule' })).toBeVisible();

    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search access rules' }), 'barcodes');
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(row('Packing floor')).toBeVisible();
    await user.clear(screen.getByRole('textbox', { name: 'Search access rules' }));
    await user.type(screen.getByRole('textbox', { name: 'Search access rules' }), 'zzz');
    expect(await screen.findByText('No access rules match')).toBeVisible();
  });

  it('says what to do when there is none yet', async () => {
    orgApi('OWNER', { [`GET ${ORG_API}/access-rules/`]: json(page([])) });
    signIn();
    renderApp(ORG_PAGES);
    expect(await screen.findByText('No access rules yet')).toBeVisible();
    expect(screen.getByText(/Start with New access rule/)).toBeVisible();
  });

  it('hides the tabs from a workspace STAFF member', async () => {
    workspaceApi('STAFF');
    signIn();
    renderApp(`/ps/client-settings/${CLIENT_ID}/client-detail`);
    expect(await screen.findByRole('link', { name: 'Modules' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Access rules' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Custom roles' })).toBeNull();
  });

  it('an OWNER creates a rule: the whole group, one permission, the module; the body as sent', async () => {
    const mock = orgApi('OWNER', {
      [`GET ${ORG_API}/access-rules/`]: json(page([])),
      [`POST ${ORG_API}/access-rules/`]: (call) =>
        json(
          {
            ...rules.packing,
            id: RULE_IDS.labels,
            ...(call.body as object),
            scope: 'organization',
          },
          201,
        ),
    });
    signIn();
    const { location } = renderApp(`${ORG_PAGES}/create`);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), '  Night shift ');
    await user.type(screen.getByRole('textbox', { name: /^Description/ }), 'Only what nights need');

    // History: the whole group allowed, then extracting denied.
    await user.click(screen.getByRole('button', { name: 'Set the whole group History' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Allow all' }));
    expect(
      within(control('View the shipment history')).getByRole('radio', { name: 'Allow' }),
    ).toBeChecked();
    await user.click(
      within(control('Extract (download) the shipment history')).getByRole('radio', {
        name: 'Deny',
      }),
    );
    await user.click(within(control('Delete shipment boxes')).getByRole('radio', { name: 'Deny' }));
    expect(screen.getByText(/Now: 1 allowed, 2 denied/)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Create access rule' }));
    await waitFor(() => expect(location()).toBe(ORG_PAGES));
    expect(mock.callsTo(`POST ${ORG_API}/access-rules/`)[0]?.body).toEqual({
      name: 'Night shift',
      description: 'Only what nights need',
      module: null,
      permissions: [
        { permission: 'tr.history.view', status: 'ALLOW' },
        { permission: 'tr.history.extract', status: 'DENY' },
        { permission: 'tr.shipment_box.delete', status: 'DENY' },
      ],
    });
    expect(await screen.findByText('The access rule Night shift has been created.')).toBeVisible();
  });

  it('edits a rule: NAME_TAKEN on the name field, then PUT with the module and the changed permissions', async () => {
    const ITEM = `${WS_API}/access-rules/${RULE_IDS.packing}/`;
    const message = 'Another access rule of this workspace already has this name.';
    const mock = workspaceApi('OWNER', {
      [`GET ${ITEM}`]: json(rules.packing),
      [`PUT ${ITEM}`]: [
        apiError(409, 'NAME_TAKEN', message, [{ field: 'name', message }]),
        (call) => json({ ...rules.packing, ...(call.body as object) }),
      ],
    });
    signIn();
    renderApp(`${WS_PAGES}/${RULE_IDS.packing}`);
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Packing floor');
    expect(screen.getByRole('combobox', { name: /Module/ })).toHaveValue('2D Transit');
    expect(
      within(control('Delete shipment boxes')).getByRole('radio', { name: 'Allow' }),
    ).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();

    await user.clear(name);
    await user.type(name, 'Label printing');
    await user.click(within(control('Print FNSKU labels')).getByRole('radio', { name: 'Allow' }));
    await user.click(
      within(control('Delete shipment boxes')).getByRole('radio', { name: 'Inherit' }),
    );
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(message)).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');

    await user.clear(name);
    await user.type(name, 'Packing and labels');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText('The access rule Packing and labels has been saved.'),
    ).toBeVisible();
    expect(mock.callsTo(`PUT ${ITEM}`)[1]?.body).toEqual({
      name: 'Packing and labels',
      description: 'Boxes and barcodes',
      module: 'TR',
      permissions: [
        { permission: 'tr.settings.update', status: 'DENY' },
        { permission: 'tr.barcode_2d.create', status: 'ALLOW' },
        { permission: 'tr.fnsku.print', status: 'ALLOW' },
      ],
    });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled(),
    );
  });

  it('deletes a rule only after the confirmation; a rule in use says which roles list it', async () => {
    const ITEM = `${ORG_API}/access-rules/${RULE_IDS.labels}/`;
    const mock = orgApi('ADMIN', {
      [`GET ${ITEM}`]: json({ ...rules.labels, scope: 'organization', client: null }),
      [`GET ${ORG_API}/access-rules/`]: json(page([])),
      [`DELETE ${ITEM}`]: [
        apiError(409, 'RULE_IN_USE', 'In use.', {
          roles: [{ id: 'x', name: 'Packers', scope: 'organization' }],
        }),
        new Response(null, { status: 204 }),
      ],
    });
    signIn();
    const { location } = renderApp(`${ORG_PAGES}/${RULE_IDS.labels}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete access rule' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete the access rule Label printing?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.callsTo(`DELETE ${ITEM}`)).toHaveLength(0);

    await pressAndConfirm(user, 'Delete access rule');
    expect(
      await screen.findByText(
        'Custom roles list this rule: Packers. Take it out of them first, then delete it.',
      ),
    ).toBeVisible();

    await pressAndConfirm(user, 'Delete access rule');
    await waitFor(() => expect(location()).toBe(ORG_PAGES));
    expect(mock.callsTo(`DELETE ${ITEM}`)).toHaveLength(2);
    expect(
      await screen.findByText('The access rule Label printing has been deleted.'),
    ).toBeVisible();
  });

  it('shows a system rule and an organization rule read-only in a workspace: no save, no delete', async () => {
    workspaceApi('OWNER', {
      [`GET ${WS_API}/access-rules/${RULE_IDS.system}/`]: json(rules.system),
      [`GET ${WS_API}/access-rules/${RULE_IDS.orgWide}/`]: json(rules.orgWide),
    });
    signIn();
    const { router } = renderApp(`${WS_PAGES}/${RULE_IDS.system}`);
    expect(
      await screen.findByText(/made by the system: it can be used but not changed/),
    ).toBeVisible();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAttribute('readonly');
    expect(
      within(control('View the shipment history')).getByRole('radio', { name: 'Allow' }),
    ).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete access rule' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Set the whole group/ })).toBeNull();

    await router.navigate(`${WS_PAGES}/${RULE_IDS.orgWide}`);
    expect(await screen.findByText(/belongs to the organization/)).toBeVisible();
    expect(screen.getByRole('link', { name: "organization's settings" })).toHaveAttribute(
      'href',
      `/ps/organization-settings/${ORG_ID}/access-rules/${RULE_IDS.orgWide}`,
    );
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
  });
});
