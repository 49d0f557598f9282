// Organization and workspace settings against the real server: an owner creates an organization
// and workspaces through the pages, switches a module off, keeps the grid view across a reload,
// deletes a workspace through the confirmation modal; a workspace added by the demo STAFF member
// waits until the demo OWNER approves it; every page passes axe. With
// E2E_SHOTS_DIR set, each page is also photographed at 1440 and 390 px wide.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { createActiveUser } from '../support/accounts.ts';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { DEMO_ORGANIZATION, DEMO_OWNER, DEMO_STAFF } from '../support/demo.ts';
import { AUTH_STORAGE_KEY } from '../support/session.ts';
import type { NewUser } from '../support/pages.ts';

const SHOTS = process.env.E2E_SHOTS_DIR;
/** A 1×1 PNG. */
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Sign in through the API and hand the browser the stored auth state, as the web app keeps it. */
async function signInAs(page: Page, request: APIRequestContext, user: NewUser): Promise<string> {
  const login = await request.post('/v1/rest-auth/app/login/', {
    data: { email: user.email, password: user.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const me = await request.get('/v1/rest-auth/user/', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const profile = (await me.json()) as {
    user_id: string;
    email: string;
    can_create_client: boolean;
  };
  await page.addInitScript(
    ([key, value]) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    [
      AUTH_STORAGE_KEY,
      JSON.stringify({
        state: {
          userToken: token,
          user: {
            user_id: profile.user_id,
            email: profile.email,
            can_create_client: profile.can_create_client,
          },
        },
        version: 1,
      }),
    ] as const,
  );
  return token;
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

async function checkPage(
  page: Page,
  testInfo: Parameters<Parameters<typeof test>[2]>[1],
  name: string,
) {
  await expectNoSeriousA11yViolations(page, testInfo);
  await shoot(page, name);
}

test.describe('organization settings', () => {
  test('an owner creates an organization and workspaces, switches a module off, keeps the grid view, deletes a workspace', async ({
    page,
    request,
    mailbox,
  }, testInfo) => {
    test.setTimeout(180_000);
    const owner = await createActiveUser(request, mailbox, 'org-owner');
    const token = await signInAs(page, request, owner);
    const auth = { Authorization: `Bearer ${token}` };
    const orgName = `Harbour ${Date.now().toString(36)}`;

    // Create the organization.
    await page.goto('/ps/organizations/create');
    await expect(page).toHaveTitle('Create an organization | Portolan');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Create an organization' }),
    ).toBeVisible();
    await checkPage(page, testInfo, '01-create-organization');
    await page.getByRole('textbox', { name: 'Organization name' }).fill(orgName);
    // The logo is uploaded at once (POST /v1/upload/); the form then sends its URL.
    await page.locator('input[type="file"]').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PNG_1PX, 'base64'),
    });
    await expect(page.getByRole('img', { name: `Logo of ${orgName}` })).toBeVisible();
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect(page.getByText(`The organization ${orgName} has been created.`)).toBeVisible();
    await expect(page.getByRole('heading', { name: `${orgName} is ready` })).toBeVisible();

    // Add two workspaces; a second one with the same name is refused on the name field.
    await page.getByRole('link', { name: 'Add a workspace' }).click();
    await expect(page).toHaveURL(/\/ps\/organizations\/[^/]+\/clients\/add$/);
    const orgId = new URL(page.url()).pathname.split('/')[3]!;
    const created = await request.get(`/v1/organizations/${orgId}/`, { headers: auth });
    expect(((await created.json()) as { logo: string | null }).logo).toMatch(/^\/uploads\//);
    await expect(page.getByText(`A new workspace in ${orgName}.`)).toBeVisible();
    await checkPage(page, testInfo, '02-add-workspace');
    await page.getByRole('textbox', { name: 'Workspace name' }).fill('North Atlantic');
    await page.getByRole('button', { name: 'Add workspace' }).click();
    await expect(page).toHaveURL(`/ps/organization-settings/${orgId}/clients`);
    await expect(page.getByText('The workspace North Atlantic has been created.')).toBeVisible();

    await page.goto(`/ps/organizations/${orgId}/clients/add`);
    const name = page.getByRole('textbox', { name: 'Workspace name' });
    await name.fill('north atlantic');
    await page.getByRole('button', { name: 'Add workspace' }).click();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await name.fill('Pacific Lanes');
    await page.getByRole('button', { name: 'Add workspace' }).click();
    await expect(page).toHaveURL(`/ps/organization-settings/${orgId}/clients`);

    const table = page.getByRole('table', { name: 'Workspaces of the organization' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await checkPage(page, testInfo, '03-workspaces-list');

    const list = await request.get(`/v1/organizations/${orgId}/clients/`, { headers: auth });
    const clients = ((await list.json()) as { results: { id: string; name: string }[] }).results;
    const north = clients.find((c) => c.name === 'North Atlantic')!;

    // Switch the transit module of North Atlantic off from the Modules page.
    await page.getByRole('button', { name: 'Actions for North Atlantic' }).click();
    await page.getByRole('menuitem', { name: 'Modules' }).click();
    await expect(page).toHaveURL(`/ps/organization-settings/${orgId}/clients/${north.id}/modules`);
    const transit = page.getByRole('switch', { name: '2D Transit module' });
    await expect(transit).toBeChecked();
    await checkPage(page, testInfo, '04-workspace-modules');
    // By keyboard: focus the switch and press Space.
    await transit.focus();
    await page.keyboard.press('Space');
    await expect(page.getByText('2D Transit is now off.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: '2D Transit module' })).not.toBeChecked();
    const modules = await request.get(`/v1/clients/${north.id}/modules/`, { headers: auth });
    expect(await modules.json()).toEqual([
      expect.objectContaining({ module: 'TR', enabled: false }),
    ]);

    // The other pages of a workspace: applications, edit; the workspace settings.
    await page.goto(`/ps/organization-settings/${orgId}/clients/${north.id}/applications`);
    await expect(page.getByRole('switch', { name: 'Transit application' })).not.toBeChecked();
    await checkPage(page, testInfo, '05-workspace-applications');
    await page.goto(`/ps/organization-settings/${orgId}/clients/${north.id}/edit`);
    await expect(page.getByRole('textbox', { name: 'Workspace name' })).toHaveValue(
      'North Atlantic',
    );
    await checkPage(page, testInfo, '06-workspace-edit');
    await page.goto(`/ps/client-settings/${north.id}`);
    await expect(page).toHaveURL(`/ps/client-settings/${north.id}/client-detail`);
    await expect(page.getByRole('textbox', { name: 'Workspace name' })).toHaveValue(
      'North Atlantic',
    );
    await checkPage(page, testInfo, '07-client-detail');
    await page.getByRole('link', { name: 'Modules' }).click();
    await expect(page.getByRole('switch', { name: '2D Transit module' })).not.toBeChecked();
    await checkPage(page, testInfo, '08-client-module');

    // The grid view is remembered (clientsViewOption) across a reload.
    await page.goto(`/ps/organization-settings/${orgId}/clients`);
    await expect(table).toBeVisible();
    await page.getByText('Grid', { exact: true }).click();
    const grid = page.getByRole('list', { name: 'Workspaces of the organization' });
    await expect(grid).toBeVisible();
    await expect
      .poll(async () => {
        const me = await request.get('/v1/rest-auth/user/', { headers: auth });
        return ((await me.json()) as { clientsViewOption: string }).clientsViewOption;
      })
      .toBe('ClientsGridView');
    await page.reload();
    await expect(grid).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Grid' })).toBeChecked();
    await checkPage(page, testInfo, '09-workspaces-grid');

    // Delete Pacific Lanes through the confirmation modal.
    await page.getByRole('button', { name: 'Actions for Pacific Lanes' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Pacific Lanes?' });
    await expect(dialog).toBeVisible();
    await checkPage(page, testInfo, '10-delete-modal');
    await dialog.getByRole('button', { name: 'Delete workspace' }).click();
    await expect(page.getByText('Pacific Lanes has been deleted.')).toBeVisible();
    await expect(grid.getByRole('listitem')).toHaveCount(1);
    const after = await request.get(`/v1/organizations/${orgId}/clients/`, { headers: auth });
    expect(((await after.json()) as { count: number }).count).toBe(1);

    // Information and Activities.
    await page.getByRole('link', { name: 'Information' }).click();
    await expect(page.getByRole('textbox', { name: 'Organization name' })).toHaveValue(orgName);
    await checkPage(page, testInfo, '11-information');
    await page.getByRole('link', { name: 'Activities' }).click();
    await expect(page.getByRole('cell', { name: /^Deleted a workspace/ })).toBeVisible();
    await checkPage(page, testInfo, '12-activities');
    await page.getByPlaceholder('All actions').click();
    await page.getByRole('option', { name: 'Approved a workspace' }).click();
    await expect(page.getByText('No activity matches')).toBeVisible();
  });

  test('a workspace added by a STAFF member waits, and the OWNER approves it', async ({
    browser,
    page,
    request,
  }, testInfo) => {
    test.setTimeout(120_000);
    // The demo organization (support/demo.ts): its owner and a STAFF member.
    const staffToken = await signInAs(page, request, {
      ...DEMO_STAFF,
      firstName: '',
      lastName: '',
    });
    const orgs = await request.get('/v1/organizations/', {
      headers: { Authorization: `Bearer ${staffToken}` },
    });
    const org = ((await orgs.json()) as { results: { id: string; name: string }[] }).results.find(
      (o) => o.name === DEMO_ORGANIZATION,
    )!;
    const name = `Staff Lane ${Date.now().toString(36)}`;

    // STAFF: told before and after that the workspace waits; no approval, no activities for them.
    await page.goto(`/ps/organizations/${org.id}/clients/add`);
    await expect(page.getByText('It will wait for approval')).toBeVisible();
    await checkPage(page, testInfo, '13-add-workspace-staff');
    await page.getByRole('textbox', { name: 'Workspace name' }).fill(name);
    await page.getByRole('button', { name: 'Add workspace' }).click();
    await expect(page.getByText(/waits for approval by an owner or an admin/)).toBeVisible();
    await expect(page).toHaveURL(`/ps/organization-settings/${org.id}/clients`);
    await page.getByText('Pending', { exact: true }).click();
    const mine = page.getByRole('row').filter({ hasText: name });
    await expect(mine.getByText('Pending approval')).toBeVisible();
    await expect(page.getByRole('button', { name: `Approve ${name}` })).toHaveCount(0);
    await expect(
      page.getByRole('navigation', { name: 'Organization settings' }).getByRole('link', {
        name: 'Activities',
      }),
    ).toHaveCount(0);
    await checkPage(page, testInfo, '14-workspaces-staff');

    // OWNER, in a browser of their own: approves it from the pending filter.
    const context = await browser.newContext();
    const owner = await context.newPage();
    await signInAs(owner, request, { ...DEMO_OWNER, firstName: '', lastName: '' });
    await owner.goto(`/ps/organization-settings/${org.id}/clients`);
    await owner.getByText('Pending', { exact: true }).click();
    const approve = owner.getByRole('button', { name: `Approve ${name}` });
    await expect(approve).toBeVisible();
    await checkPage(owner, testInfo, '15-workspaces-pending-owner');
    await approve.click();
    await expect(owner.getByText(`${name} is approved: its members can use it now.`)).toBeVisible();
    await expect(approve).toHaveCount(0);
    await context.close();

    // The STAFF member now sees it active.
    const list = await request.get(`/v1/organizations/${org.id}/clients/`, {
      headers: { Authorization: `Bearer ${staffToken}` },
    });
    const found = (
      (await list.json()) as { results: { name: string; active: boolean }[] }
    ).results.find((c) => c.name === name);
    expect(found?.active).toBe(true);
  });
});
