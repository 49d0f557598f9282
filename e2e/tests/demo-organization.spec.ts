// The demo organization every run starts with (support/demo.ts): its owner sees it on the
// dashboard, and approves a workspace its STAFF member made, which waits until then.
import type { APIRequestContext } from '@playwright/test';
import { DEMO_ORGANIZATION, DEMO_OWNER, DEMO_STAFF, DEMO_WORKSPACES } from '../support/demo.ts';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { signIn } from '../support/session.ts';

async function apiToken(request: APIRequestContext, user: { email: string; password: string }) {
  const login = await request.post('/v1/rest-auth/app/login/', {
    data: { email: user.email, password: user.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return ((await login.json()) as { token: string }).token;
}

async function demoOrganizationId(request: APIRequestContext, token: string) {
  const res = await request.get('/v1/organizations/', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const { results } = (await res.json()) as { results: { id: string; name: string }[] };
  return results.find((o) => o.name === DEMO_ORGANIZATION)!.id;
}

test('the seeded owner sees the demo organization and its workspaces on the dashboard', async ({
  page,
}, testInfo) => {
  await signIn(page, DEMO_OWNER);
  const main = page.getByRole('main');
  await expect(main.getByText(DEMO_ORGANIZATION).first()).toBeVisible();
  for (const name of DEMO_WORKSPACES) await expect(main.getByText(name).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
});

test('a workspace made by a STAFF member waits until the owner approves it', async ({
  page,
  request,
}) => {
  const staff = await apiToken(request, DEMO_STAFF);
  const orgId = await demoOrganizationId(request, staff);
  const name = `Staff pilot ${Date.now().toString(36)}`;
  const created = await request.post(`/v1/organizations/${orgId}/clients/`, {
    headers: { Authorization: `Bearer ${staff}` },
    data: { name },
  });
  expect(created.status(), await created.text()).toBe(201);
  const workspace = (await created.json()) as { id: string; active: boolean };
  expect(workspace.active).toBe(false);

  await signIn(page, DEMO_OWNER);
  await page.goto(`/ps/organization-settings/${orgId}/clients`);
  await page.getByRole('button', { name: `Approve ${name}` }).click();
  await expect(page.getByRole('button', { name: `Approve ${name}` })).toHaveCount(0);

  // The STAFF member now opens it: it is active and theirs.
  const read = await request.get(`/v1/clients/${workspace.id}/`, {
    headers: { Authorization: `Bearer ${staff}` },
  });
  expect(read.status(), await read.text()).toBe(200);
  expect(((await read.json()) as { active: boolean }).active).toBe(true);
});
