// E-mail domains (issue 11; spec §1 custom shipment template, §6 internal staff, REFERENCE account
// managers): on a server of this spec whose INTERNAL_EMAIL_DOMAINS and
// CUSTOM_TEMPLATE_EMAIL_DOMAINS name the demo accounts' domain, the demo owner sees and changes a
// workspace's managers and has the custom shipment template; on the run's server, which lists no
// domain, the same owner sees neither.
import type { APIRequestContext, Page } from '@playwright/test';
import { startConfiguredServer, type ConfiguredServer } from '../support/configured-server.ts';
import { DEMO_OWNER, DEMO_WORKSPACES } from '../support/demo.ts';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { clientAddress } from '../support/accounts.ts';
import { fillSignIn } from '../support/pages.ts';

const DEMO_DOMAIN = DEMO_OWNER.email.split('@')[1]!;

/** The id of the demo workspace North Atlantic Transit on the server `request` talks to. */
async function demoWorkspaceId(request: APIRequestContext): Promise<string> {
  const login = await request.post('/v1/rest-auth/app/login/', {
    headers: { 'X-Forwarded-For': clientAddress() },
    data: { email: DEMO_OWNER.email, password: DEMO_OWNER.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const mine = await request.get('/v1/me/organizations/and/clients/', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const { results } = (await mine.json()) as {
    results: { clients: { id: string; name: string }[] }[];
  };
  const workspace = results.flatMap((e) => e.clients).find((c) => c.name === DEMO_WORKSPACES[0]);
  expect(workspace, 'the demo workspace').toBeDefined();
  return workspace!.id;
}

async function signInAsOwner(page: Page) {
  await page.goto('/login');
  await fillSignIn(page, DEMO_OWNER.email, DEMO_OWNER.password);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
}

/** The transit home of the workspace, through the channel dropdown (a remembered channel). */
async function openTransitHome(page: Page, workspaceId: string) {
  await page.goto(`/ps/${workspaceId}/dashboard`);
  await page.getByRole('button', { name: /^Module: / }).click();
  await page.getByRole('menuitem', { name: '2D Transit' }).click();
  await expect(page).toHaveURL(new RegExp(`/tr/${workspaceId}/home$`));
  await expect(page.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
}

const detailPath = (id: string) => `/ps/client-settings/${id}/client-detail`;

test.describe('an internal-domain user (a server of this spec)', () => {
  test.describe.configure({ mode: 'serial' });
  let server: ConfiguredServer;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startConfiguredServer({
      INTERNAL_EMAIL_DOMAINS: DEMO_DOMAIN,
      CUSTOM_TEMPLATE_EMAIL_DOMAINS: DEMO_DOMAIN,
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('sees and changes the account managers, and has the custom shipment template', async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ baseURL: server.baseURL });
    const page = await context.newPage();
    try {
      const id = await demoWorkspaceId(context.request);
      await signInAsOwner(page);
      await page.goto(detailPath(id));
      const managers = page.getByRole('region', { name: 'Account managers' });
      await expect(managers).toBeVisible();
      await managers.getByRole('textbox', { name: 'Account manager' }).fill('Ann Account');
      await managers
        .getByRole('textbox', { name: 'Special project manager' })
        .fill('pia@portolan.demo');
      await managers.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('The managers have been saved.')).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);

      await page.reload();
      await expect(managers.getByRole('textbox', { name: 'Account manager' })).toHaveValue(
        'Ann Account',
      );
      await expect(managers.getByRole('textbox', { name: 'Special project manager' })).toHaveValue(
        'pia@portolan.demo',
      );

      await openTransitHome(page, id);
      await expect(
        page.getByText('Your shipments use the Custom shipment template.'),
      ).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
    } catch (error) {
      await testInfo.attach('configured-server.log', { body: server.output() });
      throw error;
    } finally {
      await context.close();
    }
  });
});

test('without the domains listed (the run’s server) the same owner sees neither', async ({
  page,
  request,
}) => {
  const id = await demoWorkspaceId(request);
  await signInAsOwner(page);
  await page.goto(detailPath(id));
  await expect(page.getByRole('textbox', { name: /Workspace name/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Account managers' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Account manager' })).toHaveCount(0);

  await openTransitHome(page, id);
  await expect(page.getByText('Your shipments use the Standard shipment template.')).toBeVisible();
});
