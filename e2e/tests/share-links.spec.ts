// Public share links (spec §2 "Any path containing /share/ is public and needs no login"): an
// owner shares the 2D Transit home of a workspace from its Share dialog; a fresh browser context
// (no storage, nobody signed in) opens the link and sees the module and the workspace's name and
// nothing else of the workspace; signed in, the link shows the same page without the app shell;
// once the owner revokes the link, the visitor's reload says it is no longer valid. The dialog and
// both public pages pass axe.
import type { Page, TestInfo } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { ownerScene } from '../support/scenes.ts';
import { AUTH_STORAGE_KEY, signIn } from '../support/session.ts';

/** Loaded (no skeleton or busy region in sight), then axe. */
async function check(page: Page, testInfo: TestInfo) {
  await expect(
    page.locator('[aria-busy="true"], .mantine-Skeleton-root').filter({ visible: true }),
  ).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo);
}

/** Nothing of the workspace beyond the shared view: no app shell, menus, other workspaces. */
async function expectOnlyTheSharedView(page: Page, hidden: string[]) {
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Workspace: / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Module: / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /account menu/i })).toHaveCount(0);
  for (const text of hidden) await expect(page.getByText(text)).toHaveCount(0);
}

test('a share link opens without sign-in in a fresh browser, and no longer once revoked', async ({
  page,
  browser,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  await signIn(page, scene.user);

  // The module home of Harbour, through the channel dropdown.
  await page.goto(`/ps/${scene.harbour}/dashboard`);
  await page.getByRole('button', { name: 'Module: No module' }).click();
  await page.getByRole('menuitem', { name: '2D Transit' }).click();
  await expect(page).toHaveURL(new RegExp(`/tr/${scene.harbour}/home$`));

  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share 2D Transit' });
  await expect(dialog.getByText('Nobody has shared a page of this workspace yet.')).toBeVisible();
  await check(page, testInfo);

  await dialog.getByRole('radio', { name: '7 days' }).check();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const field = dialog.getByRole('textbox', { name: 'Share link' });
  await expect(field).toBeVisible();
  await expect(dialog.getByText(/the link is shown only once/)).toBeVisible();
  const url = await field.inputValue();
  expect(new URL(url).pathname).toMatch(/^\/share\/[A-Za-z0-9_-]{43}$/);
  const list = dialog.getByRole('list', { name: 'Links of this workspace' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByText('Active', { exact: true })).toBeVisible();
  await check(page, testInfo);

  // A fresh browser: no storage, nobody signed in.
  const visitorContext = await browser.newContext();
  try {
    const visitor = await visitorContext.newPage();
    await visitor.goto(url);
    await expect(visitor.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    await expect(visitor).toHaveURL(url);
    await expect(visitor.getByText('Harbour', { exact: true })).toBeVisible();
    await expect(visitor.getByText('Read-only view')).toBeVisible();
    await expect(visitor.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(visitor).toHaveTitle('Shared page | Portolan');
    await expectOnlyTheSharedView(visitor, ['Dock', 'Acme e2e', scene.user.email, scene.harbour]);
    // Nobody is signed in there: the stored auth state (if any) has no token.
    const stored = await visitor.evaluate((key) => localStorage.getItem(key), AUTH_STORAGE_KEY);
    expect(
      stored ? (JSON.parse(stored) as { state: { userToken: unknown } }).state.userToken : null,
    ).toBeNull();
    await check(visitor, testInfo);

    // Signed in, the link shows the same page, still without the app shell.
    const member = await page.context().newPage();
    await member.goto(url);
    await expect(member.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    await expectOnlyTheSharedView(member, ['Dock', 'Acme e2e']);
    await member.close();

    // A browser whose stored session is over: the session ends there, the link still opens.
    const stale = await browser.newContext();
    try {
      await stale.addInitScript((key) => {
        if (!window.localStorage.getItem(key))
          window.localStorage.setItem(
            key,
            JSON.stringify({ state: { userToken: 'expired.session.token' }, version: 1 }),
          );
      }, AUTH_STORAGE_KEY);
      const returning = await stale.newPage();
      await returning.goto(url);
      // The session check ends the session (the token is gone from storage)…
      await expect
        .poll(() =>
          returning.evaluate(
            (key) =>
              (
                JSON.parse(window.localStorage.getItem(key) ?? '{}') as {
                  state?: { userToken?: string | null };
                }
              ).state?.userToken ?? null,
            AUTH_STORAGE_KEY,
          ),
        )
        .toBeNull();
      // …and the visitor is still on the shared page, not sent to sign in.
      await expect(returning).toHaveURL(url);
      await expect(returning.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    } finally {
      await stale.close();
    }

    // The owner revokes it from the dialog; the list says so.
    await dialog.getByRole('button', { name: /^Revoke the 2D Transit link shared by / }).click();
    await dialog.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect(page.getByText('The link is revoked: it no longer opens.')).toBeVisible();
    await expect(list.getByText('Revoked', { exact: true })).toBeVisible();

    await visitor.reload();
    await expect(
      visitor.getByRole('heading', { level: 1, name: 'This link is no longer valid' }),
    ).toBeVisible();
    await expect(visitor).toHaveURL(url);
    await expect(visitor.getByText('Harbour', { exact: true })).toHaveCount(0);
    await expect(visitor.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    await check(visitor, testInfo);

    // The API says the same to anyone, and the same as for a token never issued.
    const token = new URL(url).pathname.split('/').pop()!;
    const revoked = await request.get(`/v1/share/${token}/`);
    const unknown = await request.get(`/v1/share/${'A'.repeat(43)}/`);
    expect(revoked.status()).toBe(404);
    expect(await revoked.json()).toEqual(await unknown.json());
  } finally {
    await visitorContext.close();
  }
});
