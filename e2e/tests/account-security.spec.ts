// Account security (issue 20 items 1, 3, 4, 8, 9) against the real server: an account turns on
// two-step verification from My Settings → Security (QR code, the key read from the page, a code
// computed here as an authenticator app would), then signs in with a code of its app and with a
// recovery code, each in the security log; and a plan change on a server whose step-up window is
// 3 s asks for the password in the step-up dialog, then goes through. Axe at 1440 and 390 px on the
// Security tab, the sign-in's code step and the step-up dialog.
import type { Page } from '@playwright/test';
import { createActiveUser } from '../support/accounts.ts';
import { checkBothWidths } from '../support/axe.ts';
import { billingUrl } from '../support/billing.ts';
import { startConfiguredServer, type ConfiguredServer } from '../support/configured-server.ts';
import { DEMO_ORGANIZATION, DEMO_OWNER } from '../support/demo.ts';
import { expect } from '../support/fixtures.ts';
import { enterCode, expectDashboard, fillSignIn } from '../support/pages.ts';
import { logoutViaMenu, signIn, test } from '../support/session.ts';
import { totpCode, totpStep } from '../support/totp.ts';
import { confirmTotpSetup, startTotpSetup, twoStepCard } from '../support/two-step.ts';

const codeStep = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Two-step verification' });

test('an account turns on two-step verification, then signs in with its app and with a recovery code', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await createActiveUser(request, mailbox, 'two-step');
  await signIn(page, user, '/ps/profile?tab=security');
  const card = twoStepCard(page);
  const log = page.getByRole('region', { name: 'Security log' });

  let secret = '';
  let enrolledStep = 0;
  let recoveryCodes: string[] = [];
  await test.step('sets up the authenticator app from the Security tab', async () => {
    await expect(card.getByText('Off', { exact: true })).toBeVisible();
    secret = await startTotpSetup(page);
    await checkBothWidths(page, testInfo);

    ({ step: enrolledStep, recoveryCodes } = await confirmTotpSetup(page, secret));
    await checkBothWidths(page, testInfo);

    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('portolan-recovery-codes.txt');
    await card.getByRole('button', { name: 'I have saved them' }).click();
    await expect(card.getByText('On', { exact: true })).toBeVisible();
    await expect(card).toContainText('Recovery codes left: 10 of 10.');
    await expect(log).toContainText('Turned on two-step verification (authenticator app)');
  });

  await test.step('signs in with a code of the app (a step not used yet)', async () => {
    // Logged out from the Security tab, the sign-in comes back to it (the `path` query).
    await logoutViaMenu(page);
    await expect(page).toHaveURL(/\/login\?path=%2Fps%2Fprofile%3Ftab%3Dsecurity$/);
    await fillSignIn(page, user.email, user.password);
    await expect(codeStep(page)).toBeVisible();
    const first = page.getByRole('textbox', { name: /digit 1 of 6/ });
    await expect(first).toBeFocused();
    await expect(first).toHaveAttribute('autocomplete', 'one-time-code');
    await checkBothWidths(page, testInfo);

    // The server refuses a code of a step already used: the next one (within its window) or now.
    await enterCode(page, totpCode(secret, Math.max(enrolledStep + 1, totpStep())));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/ps\/profile\?tab=security$/);
    await expect(log).toContainText('Signed in with password and authenticator app');
  });

  await test.step('signs in with a recovery code, which is then used up', async () => {
    await logoutViaMenu(page);
    await fillSignIn(page, user.email, user.password);
    await expect(codeStep(page)).toBeVisible();
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    const field = page.getByRole('textbox', { name: 'Recovery code' });
    await expect(field).toBeFocused();
    await field.fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/ps\/profile\?tab=security$/);
    await expect(card).toContainText('Recovery codes left: 9 of 10.');
    await expect(log).toContainText('Signed in with password and a recovery code');
    await checkBothWidths(page, testInfo);
  });
});

test.describe('step-up (a server whose proof of presence lasts 3 s)', () => {
  test.describe.configure({ mode: 'serial' });
  let server: ConfiguredServer;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startConfiguredServer({ STEP_UP_MAX_AGE_S: '3' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a plan change asks for the password in the step-up dialog, then goes through', async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ baseURL: server.baseURL });
    const page = await context.newPage();
    try {
      await page.goto('/login');
      await fillSignIn(page, DEMO_OWNER.email, DEMO_OWNER.password);
      await expectDashboard(page);
      const signedInAt = Date.now();

      const login = await context.request.post('/v1/rest-auth/app/login/', {
        data: DEMO_OWNER,
      });
      const { token } = (await login.json()) as { token: string };
      const mine = await context.request.get('/v1/me/organizations/and/clients/', {
        headers: { Authorization: `Bearer ${token}` },
      });
      const entries = (await mine.json()) as {
        results: { organization: { id: string; name: string } }[];
      };
      const orgId = entries.results.find((e) => e.organization.name === DEMO_ORGANIZATION)!
        .organization.id;

      await page.goto(billingUrl(orgId, 'plans'));
      await expect(page.getByTestId('plan-PROFESSIONAL')).toContainText('Current plan');
      await page
        .getByTestId('plan-BUSINESS')
        .getByRole('button', { name: 'Upgrade to Business' })
        .click();
      const change = page.getByRole('dialog', { name: 'Upgrade to Business' });
      await expect(change.getByTestId('plan-change-invoice')).toBeVisible();
      // The sign-in no longer counts as a proof of presence.
      await page.waitForTimeout(Math.max(0, signedInAt + 3_500 - Date.now()));
      await change.getByRole('button', { name: 'Confirm' }).click();

      const stepUp = page.getByRole('dialog', { name: 'Confirm it’s you' });
      await expect(stepUp).toBeVisible();
      const password = stepUp.getByLabel('Password', { exact: true });
      await expect(password).toBeFocused();
      await checkBothWidths(page, testInfo);

      await password.fill(DEMO_OWNER.password);
      await stepUp.getByRole('button', { name: 'Confirm' }).click();
      await expect(stepUp).toBeHidden();
      await expect(change).toBeHidden();
      await expect(
        page
          .locator('[data-position="top-center"]')
          .getByRole('alert')
          .filter({ hasText: 'Your organization is now on the Business plan.' }),
      ).toBeVisible();
      await expect(page.getByTestId('plan-BUSINESS')).toContainText('Current plan');
    } catch (error) {
      await testInfo.attach('configured-server.log', { body: server.output() });
      throw error;
    } finally {
      await context.close();
    }
  });
});
