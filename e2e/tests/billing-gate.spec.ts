// The subscription gate (spec §4, §6) in the browser, on the organization whose subscription has
// lapsed (EXPIRED, no longer active; made before the server starts by support/seed-lapsed.ts):
// a page about it sends its OWNER to the billing subscription page, and a STAFF member to the
// dashboard with `?status=expired` and the billing-expired toast, word for word.
import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, billingUrl } from '../support/billing.ts';
import {
  LAPSED_ORGANIZATION,
  LAPSED_OWNER,
  LAPSED_STAFF,
  LAPSED_WORKSPACE,
} from '../support/demo.ts';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { pathAndQuery } from '../support/pages.ts';
import { signIn } from '../support/session.ts';

const EXPIRED_TOAST =
  "Your organization's subscription has been expired. Please contact to your Owner or Admin to get more information.";

/** The lapsed organization's id and its workspace's, as its member sees them. */
async function lapsed(request: APIRequestContext, user: { email: string; password: string }) {
  const token = await apiToken(request, user);
  const res = await request.get('/v1/me/organizations/and/clients/', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const { results } = (await res.json()) as {
    results: {
      organization: { id: string; name: string };
      clients: { id: string; name: string }[];
    }[];
  };
  const entry = results.find((e) => e.organization.name === LAPSED_ORGANIZATION);
  expect(entry, `${user.email} is a member of ${LAPSED_ORGANIZATION}`).toBeTruthy();
  const workspace = entry!.clients.find((c) => c.name === LAPSED_WORKSPACE);
  expect(workspace, `${LAPSED_WORKSPACE} is among ${user.email}'s workspaces`).toBeTruthy();
  return { orgId: entry!.organization.id, workspaceId: workspace!.id };
}

/** The billing-expired toast, in Mantine's top-centre notifications. */
const expiredToast = (page: Page) =>
  page
    .locator('[data-position="top-center"]')
    .getByRole('alert')
    .filter({ has: page.getByText(EXPIRED_TOAST, { exact: true }) });

/** From the workspace's dashboard (not gated), its channel dropdown opens the 2D Transit module. */
async function openModule(page: Page, workspaceId: string) {
  await page.goto(`/ps/${workspaceId}/dashboard`);
  await page.getByRole('button', { name: /^Module: / }).click();
  await page.getByRole('menuitem', { name: '2D Transit' }).click();
}

test('the OWNER of a lapsed organization is sent to its billing subscription page', async ({
  page,
  request,
}, testInfo) => {
  const { orgId, workspaceId } = await lapsed(request, LAPSED_OWNER);
  await signIn(page, LAPSED_OWNER);

  const expectSentToBilling = async (from: string) => {
    await expect(page, from).toHaveURL(new RegExp(`${billingUrl(orgId, 'subscription')}$`));
    const subscription = page.getByTestId('billing-subscription');
    await expect(subscription).toContainText('Standard plan');
    await expect(subscription).toContainText('Expired');
    await expect(page.getByText(/^This subscription has ended\./)).toBeVisible();
    await expect(expiredToast(page)).toHaveCount(0);
  };
  await page.goto(`/ps/organization-settings/${orgId}/clients`);
  await expectSentToBilling('from the organization’s Workspaces settings');
  await openModule(page, workspaceId);
  await expectSentToBilling('from the workspace’s module');
  await expectNoSeriousA11yViolations(page, testInfo);

  // The billing pages stay open to put it right: every self-serve plan is subscribed to again.
  await page.getByRole('link', { name: 'Choose a plan' }).click();
  await expect(page).toHaveURL(new RegExp(`${billingUrl(orgId, 'plans')}$`));
  await expect(
    page.getByTestId('plan-STANDARD').getByRole('button', { name: 'Subscribe to Standard' }),
  ).toBeVisible();
});

test('a STAFF member of a lapsed organization gets the expired toast and the dashboard', async ({
  page,
  request,
}) => {
  const { orgId, workspaceId } = await lapsed(request, LAPSED_STAFF);
  await signIn(page, LAPSED_STAFF);

  await page.goto(`/ps/organization-settings/${orgId}/clients`);
  await expect(page).toHaveURL(/\/ps\/dashboard\?status=expired$/);
  expect(pathAndQuery(page)).toBe('/ps/dashboard?status=expired');
  await expect(expiredToast(page)).toHaveCount(1);
  await expect(expiredToast(page)).toBeVisible();

  // A module page of one of its workspaces is gated the same way (the dashboard is then the
  // workspace's own).
  await openModule(page, workspaceId);
  await expect(page).toHaveURL(new RegExp(`/ps/${workspaceId}/dashboard\\?status=expired$`));
  await expect(expiredToast(page)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: '2D Transit' })).toHaveCount(0);
});
