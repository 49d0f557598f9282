// Invitations end to end (issue 8): a newcomer joins a workspace through the e-mailed link and
// chooses a password; an existing user sees the invitation arrive in the bell without reloading
// (the push stream) and accepts it, or declines; the bell polls every 60 s when the stream is
// down, and Load more shows 10 more. Every page passes axe.
import type { APIRequestContext, Page } from '@playwright/test';
import { createActiveUser } from '../support/accounts.ts';
import { expect, expectNoSeriousA11yViolations, test, uniqueEmail } from '../support/fixtures.ts';
import { authOf, invitationLink, ownerScene, type Scene } from '../support/scenes.ts';
import { signIn } from '../support/session.ts';
import { subscribeThroughApi } from '../support/billing.ts';

async function invite(
  request: APIRequestContext,
  scene: Scene,
  to: { organization: true } | { client: string },
  email: string,
  role = 'STAFF',
) {
  const url =
    'client' in to
      ? `/v1/clients/${to.client}/users/invitation/`
      : `/v1/organizations/${scene.orgId}/users/invitation/`;
  const res = await request.post(url, { headers: authOf(scene), data: { email, role } });
  expect(res.status(), await res.text()).toBe(201);
}

// Spec §8, word for word.
const Messages = {
  invitationAcceptedWorkspace: 'Your account has been activated for the new workspace.',
  invitationAcceptedOrganization: 'Your account has been activated for the new organization.',
};

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

test('a newcomer joins a workspace through the e-mailed link and chooses a password', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  const email = uniqueEmail('newcomer');
  await invite(request, scene, { client: scene.harbour }, email);

  await page.goto(await invitationLink(mailbox, email));
  await expect(page.getByRole('heading', { level: 1, name: 'Join Harbour' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Nia');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Okafor');
  await page.getByLabel('Password', { exact: true }).fill('Harbour newcomer passphrase 7');
  await page.getByLabel('Confirm password', { exact: true }).fill('Harbour newcomer passphrase 7');
  await page.getByRole('button', { name: 'Join and sign in' }).click();

  await expect(page.getByText(Messages.invitationAcceptedWorkspace)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/ps/${scene.harbour}/dashboard$`));
  await expect(page.getByRole('button', { name: 'Workspace: Harbour' })).toBeVisible();

  // The link is used up; the password works for signing in.
  const again = await request.post('/v1/clients/users/invitation/accept/', {
    data: { token: new URL(page.url()).searchParams.get('token') ?? 'used' },
  });
  expect(again.status()).toBeGreaterThanOrEqual(400);
  const login = await request.post('/v1/rest-auth/app/login/', {
    data: { email, password: 'Harbour newcomer passphrase 7' },
  });
  expect(login.ok()).toBe(true);
});

test('an invitation reaches an open bell without a reload; Accept joins the organization', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  const invitee = await createActiveUser(request, mailbox, 'invitee');
  await signIn(page, invitee);
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  const sent = Date.now();
  await invite(request, scene, { organization: true }, invitee.email, 'ADMIN');
  // Pushed over the stream: long before the 60 s poll.
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unseen', { timeout: 4_000 });
  testInfo.annotations.push({ type: 'push delay', description: `${Date.now() - sent} ms` });

  await bell(page).click();
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(
    list.getByText(/invited you to join the organization Acme e2e as Admin/),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
  await list.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText(Messages.invitationAcceptedOrganization)).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await page.keyboard.press('Escape');
  // As ADMIN they see the organization and its workspaces on the dashboard.
  await expect(page.getByRole('heading', { name: 'Acme e2e' })).toBeVisible();
});

test('Decline from the bell: the invitation is gone and the owner sees no new member', async ({
  page,
  request,
  mailbox,
}) => {
  const scene = await ownerScene(request, mailbox);
  const invitee = await createActiveUser(request, mailbox, 'decliner');
  await invite(request, scene, { client: scene.dock }, invitee.email);
  await signIn(page, invitee);
  await bell(page).click();
  const list = page.getByRole('list', { name: 'Notifications' });
  await list.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByText('The invitation has been declined.')).toBeVisible();
  await expect(list.getByRole('button', { name: 'Decline' })).toHaveCount(0);
  const members = await request.get(`/v1/clients/${scene.dock}/users/`, { headers: authOf(scene) });
  const body = (await members.json()) as { results: { user: { email: string } }[] };
  expect(body.results.map((m) => m.user.email)).not.toContain(invitee.email);
});

test('with the push stream down the bell polls every 60 s; Load more shows 10 more', async ({
  page,
  request,
  mailbox,
}) => {
  const scene = await ownerScene(request, mailbox);
  const invitee = await createActiveUser(request, mailbox, 'poller');
  await page.route('**/v1/user/notification/stream/', (route) => route.abort());
  await page.clock.install();
  await signIn(page, invitee);
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  // Eleven invitations: one to the organization and one to each of ten new workspaces (more than
  // the trial's three: the organization subscribes to Business first).
  await subscribeThroughApi(request, scene, 'BUSINESS');
  await invite(request, scene, { organization: true }, invitee.email);
  for (let i = 0; i < 10; i += 1) {
    const ws = await request.post(`/v1/organizations/${scene.orgId}/clients/`, {
      headers: authOf(scene),
      data: { name: `Berth ${i}` },
    });
    expect(ws.status(), await ws.text()).toBe(201);
    await invite(
      request,
      scene,
      { client: ((await ws.json()) as { id: string }).id },
      invitee.email,
    );
  }
  await page.clock.fastForward(30_000);
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await page.clock.fastForward(31_000);
  await expect(bell(page)).toHaveAccessibleName('Notifications, 11 unseen');

  await bell(page).click();
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(11);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});
