// Spec §4 from the UI (issue 18, items 18 and 21): switching organization in the workspace
// dropdown saves it as current, resets the current workspace and puts the organization first;
// the `/redirect` helper route hops to a safe in-app path, and anything else to the dashboard.
import type { APIRequestContext, Page } from '@playwright/test';
import { clientAddress, createActiveUser } from '../support/accounts.ts';
import { expect, type Mailbox } from '../support/fixtures.ts';
import { authOf, ownerScene, type Scene } from '../support/scenes.ts';
import { AUTH_STORAGE_KEY, signIn, test } from '../support/session.ts';

/** A second owner's organization "Bravo Lines" with the workspace Quay; the scene's owner an ADMIN of it. */
async function secondOrganization(request: APIRequestContext, mailbox: Mailbox, scene: Scene) {
  const other = await createActiveUser(request, mailbox, 'bravo');
  const login = await request.post('/v1/rest-auth/app/login/', {
    headers: { 'X-Forwarded-For': clientAddress() },
    data: { email: other.email, password: other.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const auth = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const org = await request.post('/v1/organizations/', {
    headers: auth,
    data: { name: 'Bravo Lines' },
  });
  expect(org.status(), await org.text()).toBe(201);
  const orgId = ((await org.json()) as { id: string }).id;
  const quay = await request.post(`/v1/organizations/${orgId}/clients/`, {
    headers: auth,
    data: { name: 'Quay' },
  });
  expect(quay.status(), await quay.text()).toBe(201);
  const added = await request.post(`/v1/organizations/${orgId}/users/force-invitation/`, {
    headers: auth,
    data: {
      email: scene.user.email,
      role: 'ADMIN',
      first_name: 'Test',
      last_name: 'User',
      password: 'Unused passphrase 2026',
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  // The scene's own token is still good for its organization.
  expect((await request.get('/v1/rest-auth/user/', { headers: authOf(scene) })).ok()).toBe(true);
  return orgId;
}

async function storedTenancy(page: Page) {
  return page.evaluate((key) => {
    const raw = window.localStorage.getItem(key);
    const state = raw
      ? (
          JSON.parse(raw) as {
            state: {
              current_client: { id: string } | null;
              org: { current: { id: string } | null; list: { organization: { id: string } }[] };
            };
          }
        ).state
      : null;
    return state
      ? {
          client: state.current_client?.id ?? null,
          org: state.org.current?.id ?? null,
          first: state.org.list[0]?.organization.id ?? null,
        }
      : null;
  }, AUTH_STORAGE_KEY);
}

test('switching organization in the dropdown makes it current, resets the workspace, puts it first', async ({
  page,
  request,
  mailbox,
}) => {
  const scene = await ownerScene(request, mailbox);
  const bravo = await secondOrganization(request, mailbox, scene);
  await signIn(page, scene.user);
  await page.goto(`/ps/${scene.harbour}/dashboard`);
  await expect(page.getByRole('button', { name: 'Workspace: Harbour' })).toBeVisible();
  await expect
    .poll(() => storedTenancy(page))
    .toEqual({
      client: scene.harbour,
      org: scene.orgId,
      first: scene.orgId,
    });

  await page.getByRole('button', { name: 'Workspace: Harbour' }).click();
  const groups = page.getByRole('group');
  await expect(groups).toHaveCount(2);
  await expect(groups.nth(0)).toHaveAccessibleName('Acme e2e');
  // The current organization offers no switch to itself.
  await expect(
    groups.nth(0).getByRole('menuitem', { name: /^Switch to/ }),
    'no switch to the current organization',
  ).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Switch to Bravo Lines' }).click();

  await expect(page).toHaveURL(/\/ps\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Workspace: none chosen' })).toBeVisible();
  await expect.poll(() => storedTenancy(page)).toEqual({ client: null, org: bravo, first: bravo });

  await page.getByRole('button', { name: 'Workspace: none chosen' }).click();
  await expect(groups.nth(0)).toHaveAccessibleName('Bravo Lines');
  await expect(groups.nth(1).getByRole('menuitem', { name: 'Switch to Acme e2e' })).toBeVisible();
  // The dashboard lists the current organization first too.
  await page.keyboard.press('Escape');
  await expect(
    page.getByRole('heading', { level: 2, name: /^(Acme e2e|Bravo Lines)$/ }),
  ).toHaveText(['Bravo Lines', 'Acme e2e']);

  // After a reload the choice is still there.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Workspace: none chosen' })).toBeVisible();
  expect(await storedTenancy(page)).toEqual({ client: null, org: bravo, first: bravo });
});

test('/redirect hops to a safe in-app path, and anything else to the dashboard', async ({
  page,
  account,
}) => {
  await signIn(page, account);
  await page.goto(`/redirect?path=${encodeURIComponent('/ps/profile?from=hop')}`);
  await expect(page).toHaveURL(/\/ps\/profile\?from=hop$/);
  await expect(page).toHaveTitle('My Settings | Portolan');
  // The hop replaced itself: Back leaves the profile for the page before the hop.
  await page.goBack();
  await expect(page).toHaveURL(/\/ps\/dashboard$/);

  for (const bad of ['//evil.example/ps/profile', 'https://evil.example', '/\\evil.example']) {
    await page.goto(`/redirect?path=${encodeURIComponent(bad)}`);
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/ps\/dashboard$/);
  }
});
