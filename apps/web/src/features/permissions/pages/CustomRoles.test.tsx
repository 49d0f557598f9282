import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, type Reply } from '../../../test/api-mock';
import { pressAndConfirm } from '../../../test/dialogs';
import { ROLE_IDS, roles, rules } from '../../../test/permission-fixtures';
import { renderApp, signIn } from '../../../test/render-app';
import {
  adaWithView,
  CLIENT_ID,
  ORG_ID,
  organization,
  page,
  workspace,
} from '../../../test/tenant-fixtures';

const WS_PAGES = `/ps/client-settings/${CLIENT_ID}/custom-roles`;
const WS_API = `/v1/clients/${CLIENT_ID}`;
const ORG_PAGES = `/ps/organization-settings/${ORG_ID}/custom-roles`;
const ORG_API = `/v1/organizations/${ORG_ID}`;

function workspaceApi(role: string, extra: Record<string, Reply | Reply[]> = {}) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET ${WS_API}/`]: json(workspace({ role })),
    [`GET ${WS_API}/access-rules/`]: json(page([rules.orgWide, rules.labels, rules.packing])),
    ...extra,
  });
}

/** The names of the listed rules, in order. */
const listed = () =>
  within(screen.getByRole('list', { name: 'Access rules of the role, in priority order' }))
    .getAllByRole('listitem')
    .map((li) =>
      within(li)
        .getByText(/^Priority \d+:/)
        .parentElement?.textContent?.replace(/^Priority \d+: /, ''),
    );

async function addRule(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('combobox', { name: 'Add a rule' }));
  await user.click(await screen.findByRole('option', { name }));
  await user.click(screen.getByRole('button', { name: 'Add' }));
}

describe('Custom roles', () => {
  it('lists roles with their rules in order; an organization role is marked', async () => {
    workspaceApi('ADMIN', {
      [`GET ${WS_API}/custom-roles/`]: json(page([roles.auditors, roles.packers])),
    });
    signIn();
    renderApp(WS_PAGES);
    const table = await screen.findByRole('table', { name: /Custom roles/ });
    const packers = within(table).getByRole('row', { name: /Packers/ });
    expect(packers).toHaveTextContent('2 rules');
    expect(packers).toHaveTextContent('Packing floor → Label printing');
    expect(
      within(within(table).getByRole('row', { name: /Auditors/ })).getByText('Organization'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'New custom role' })).toBeVisible();
  });

  it('creates a role from rules added, reordered by keyboard and removed: the ordered body', async () => {
    const mock = workspaceApi('MANAGER', {
      [`GET ${WS_API}/custom-roles/`]: json(page([])),
      [`POST ${WS_API}/custom-roles/`]: [
        apiError(400, 'VALIDATION_ERROR', 'name: Enter the custom role name.', [
          { field: 'name', message: 'Enter a clearer name.' },
        ]),
        (call) => json({ ...roles.packers, ...(call.body as object) }, 201),
      ],
    });
    signIn();
    const { location } = renderApp(`${WS_PAGES}/create`);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Night packers');
    expect(screen.getByText('No rule yet: add one below.')).toBeVisible();

    await addRule(user, 'Packing floor');
    await addRule(user, 'Label printing');
    await addRule(user, 'Head office');
    expect(listed()).toEqual(['Packing floor', 'Label printing', 'Head office']);
    // An organization rule is usable in the workspace, and marked so.
    expect(within(screen.getAllByRole('listitem')[2]!).getByText('Organization')).toBeVisible();

    // Head office to the top, from the keyboard; the focus stays on it.
    const up = screen.getByRole('button', { name: 'Move Head office up' });
    up.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Move Head office up' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(listed()).toEqual(['Head office', 'Packing floor', 'Label printing']);
    expect(screen.getByRole('button', { name: 'Move Head office down' })).toHaveFocus();
    // Said to screen readers (a polite live region).
    expect(screen.getByText('Head office moved to position 1 of 3.')).toHaveAttribute(
      'aria-live',
      'polite',
    );
    await user.click(screen.getByRole('button', { name: 'Remove Packing floor' }));
    expect(listed()).toEqual(['Head office', 'Label printing']);

    await user.click(screen.getByRole('button', { name: 'Create custom role' }));
    expect(await screen.findByText('Enter a clearer name.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Create custom role' }));
    await waitFor(() => expect(location()).toBe(WS_PAGES));
    expect(mock.callsTo(`POST ${WS_API}/custom-roles/`)[1]?.body).toEqual({
      name: 'Night packers',
      description: '',
      rules: [
        { rule: rules.orgWide.id, priority: 1 },
        { rule: rules.labels.id, priority: 2 },
      ],
    });
  });

  it('edits a role (PUT with the new order) and deletes it after confirming; a role in use is refused', async () => {
    const ITEM = `${WS_API}/custom-roles/${ROLE_IDS.packers}/`;
    const mock = workspaceApi('OWNER', {
      [`GET ${ITEM}`]: json(roles.packers),
      [`GET ${WS_API}/custom-roles/`]: json(page([])),
      [`PUT ${ITEM}`]: (call) => json({ ...roles.packers, ...(call.body as object) }),
      [`DELETE ${ITEM}`]: [
        apiError(409, 'ROLE_IN_USE', '2 members hold this role.', { members: [], count: 2 }),
        new Response(null, { status: 204 }),
      ],
    });
    signIn();
    const { location } = renderApp(`${WS_PAGES}/${ROLE_IDS.packers}`);
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Access rules of the role, in priority order' });
    expect(listed()).toEqual(['Packing floor', 'Label printing']);
    await user.click(screen.getByRole('button', { name: 'Move Label printing up' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The custom role Packers has been saved.')).toBeVisible();
    expect(mock.callsTo(`PUT ${ITEM}`)[0]?.body).toEqual({
      name: 'Packers',
      description: '',
      rules: [
        { rule: rules.labels.id, priority: 1 },
        { rule: rules.packing.id, priority: 2 },
      ],
    });

    await pressAndConfirm(user, 'Delete custom role');
    expect(
      await screen.findByText(
        '2 members hold this role. Take it from them on their permissions pages first, then delete it.',
      ),
    ).toBeVisible();
    await pressAndConfirm(user, 'Delete custom role');
    await waitFor(() => expect(location()).toBe(WS_PAGES));
    expect(mock.callsTo(`DELETE ${ITEM}`)).toHaveLength(2);
  });

  it('an organization role lists only the organization’s rules; an ADMIN creates one there', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET ${ORG_API}/`]: json(organization('ADMIN')),
      [`GET ${ORG_API}/access-rules/`]: json(page([rules.orgWide])),
      [`GET ${ORG_API}/custom-roles/`]: json(page([])),
      [`POST ${ORG_API}/custom-roles/`]: (call) =>
        json({ ...roles.auditors, ...(call.body as object) }, 201),
    });
    signIn();
    renderApp(`${ORG_PAGES}/create`);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Auditors');
    await user.click(screen.getByRole('combobox', { name: 'Add a rule' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Head office',
    ]);
    await user.click(screen.getByRole('option', { name: 'Head office' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(screen.getByRole('button', { name: 'Create custom role' }));
    expect(await screen.findByText('The custom role Auditors has been created.')).toBeVisible();
    expect(mock.callsTo(`POST ${ORG_API}/custom-roles/`)[0]?.body).toMatchObject({
      rules: [{ rule: rules.orgWide.id, priority: 1 }],
    });
  });

  it('shows an organization role read-only from a workspace: no reordering, no save', async () => {
    workspaceApi('OWNER', {
      [`GET ${WS_API}/custom-roles/${ROLE_IDS.auditors}/`]: json(roles.auditors),
    });
    signIn();
    renderApp(`${WS_PAGES}/${ROLE_IDS.auditors}`);
    expect(await screen.findByText(/belongs to the organization/)).toBeVisible();
    expect(listed()).toEqual(['Head office']);
    expect(screen.queryByRole('button', { name: /Remove Head office/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Add a rule' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete custom role' })).toBeNull();
  });
});
