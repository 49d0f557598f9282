// Passkeys (issue 20 item 2) in the browser, with Chromium's virtual authenticator (the DevTools
// protocol's WebAuthn domain: a device with a resident key and user verification, its presence
// simulated) standing in for a phone or a laptop's fingerprint reader. WebAuthn takes a domain as
// the relying party, never an IP address, and the run's server is 127.0.0.1: this spec runs a
// portal of its own (support/configured-server.ts) addressed as http://localhost:<port>, whose
// proof of presence lasts 3 s, so that adding and removing each meet the step-up dialog.
// The demo owner adds a passkey from My Settings → Security (the password asked first; the
// recovery codes shown once, as it is the account's first factor), signs out and signs in with the
// passkey alone (back to the page left), then with the password, the second step asking for the
// passkey, and removes it, the step-up answered with the passkey. Axe at 1440 and 390 px on the
// Passkeys card (empty, with the codes, with the list), the sign-in page, the second step and the
// step-up dialog; with E2E_SHOTS_DIR set, each is photographed at both widths.
import type { CDPSession, Page } from '@playwright/test';
import { checkBothWidths } from '../support/axe.ts';
import { startConfiguredServer, type ConfiguredServer } from '../support/configured-server.ts';
import { DEMO_OWNER } from '../support/demo.ts';
import { expect, test } from '../support/fixtures.ts';
import { fillSignIn } from '../support/pages.ts';
import { logoutViaMenu } from '../support/session.ts';

const SECURITY_TAB = '/ps/profile?tab=security';
const STEP_UP_S = 3;
const NAME = 'E2E virtual key';

/** A platform authenticator in this page's browser that makes discoverable, verified passkeys. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function storedPasskeys(cdp: CDPSession, authenticatorId: string) {
  return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
}

/** Until the last proof of presence (at `since`, ms) no longer counts: the next change steps up. */
async function outlastStepUp(page: Page, since: number) {
  await page.waitForTimeout(Math.max(0, since + STEP_UP_S * 1000 + 500 - Date.now()));
}

test.describe('passkeys (a portal at localhost whose proof of presence lasts 3 s)', () => {
  test.describe.configure({ mode: 'serial' });
  let server: ConfiguredServer;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startConfiguredServer(
      { STEP_UP_MAX_AGE_S: String(STEP_UP_S) },
      { hostname: 'localhost' },
    );
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('adds a passkey, signs in with it alone and as the second step, and removes it', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(150_000);
    const context = await browser.newContext({ baseURL: server.baseURL });
    const page = await context.newPage();
    const card = page.getByRole('region', { name: 'Passkeys' });
    const log = page.getByRole('region', { name: 'Security log' });
    const stepUp = page.getByRole('dialog', { name: 'Confirm it’s you' });
    try {
      const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
      await page.goto(`/login?path=${encodeURIComponent(SECURITY_TAB)}`);
      await fillSignIn(page, DEMO_OWNER.email, DEMO_OWNER.password);
      await expect(page).toHaveURL(/\/ps\/profile\?tab=security$/);
      let provenAt = Date.now();

      await test.step('adds a passkey: the password first, then the recovery codes once', async () => {
        await expect(card.getByText('No passkeys yet')).toBeVisible();
        await card.getByRole('textbox', { name: /^Name/ }).fill(NAME);
        await outlastStepUp(page, provenAt);
        await card.getByRole('button', { name: 'Add a passkey' }).click();

        await stepUp.getByLabel('Password', { exact: true }).fill(DEMO_OWNER.password);
        await stepUp.getByRole('button', { name: 'Confirm' }).click();
        await expect(stepUp).toBeHidden();

        const codes = card.getByRole('list', { name: 'Your recovery codes' });
        await expect(codes.getByRole('listitem')).toHaveCount(10);
        expect(await storedPasskeys(cdp, authenticatorId)).toHaveLength(1);
        await checkBothWidths(page, testInfo, { name: 'passkeys-card-codes', of: card });
        await card.getByRole('button', { name: 'I have saved them' }).click();

        const list = card.getByRole('list', { name: 'Your passkeys' });
        await expect(list.getByRole('listitem')).toHaveCount(1);
        await expect(list).toContainText(NAME);
        await expect(list).toContainText('not used yet');
        await expect(page.getByRole('region', { name: /^Two-step verification/ })).toContainText(
          'Recovery codes left: 10 of 10.',
        );
        await expect(log).toContainText('Added a passkey');
        await checkBothWidths(page, testInfo, { name: 'passkeys-card', of: card });
      });

      await test.step('signs out, then in with the passkey alone, back to the page', async () => {
        await logoutViaMenu(page);
        await expect(page).toHaveURL(/\/login\?path=%2Fps%2Fprofile%3Ftab%3Dsecurity$/);
        const button = page.getByRole('button', { name: 'Sign in with a passkey' });
        await button.focus();
        await page.keyboard.press('Enter');
        await expect(page).toHaveURL(/\/ps\/profile\?tab=security$/);
        await expect(log).toContainText('Signed in with a passkey');
        await expect(card.getByRole('list', { name: 'Your passkeys' })).toContainText('last used');
      });

      await test.step('signs in with the password: the second step asks for the passkey', async () => {
        await logoutViaMenu(page);
        await fillSignIn(page, DEMO_OWNER.email, DEMO_OWNER.password);
        await expect(
          page.getByRole('heading', { level: 1, name: 'Two-step verification' }),
        ).toBeVisible();
        const use = page.getByRole('button', { name: 'Use a passkey' });
        await expect(use).toBeFocused();
        await expect(
          page.getByRole('button', { name: 'Use a recovery code instead' }),
        ).toBeVisible();
        await use.click();
        await expect(page).toHaveURL(/\/ps\/profile\?tab=security$/);
        provenAt = Date.now();
        await expect(log).toContainText('Signed in with password and a passkey');
      });

      await test.step('removes the passkey, the step-up answered with it', async () => {
        await outlastStepUp(page, provenAt);
        await card.getByRole('button', { name: `Remove ${NAME}` }).click();
        const confirm = page.getByRole('dialog', { name: 'Remove this passkey?' });
        await expect(confirm).toContainText('your recovery codes stop working');
        await confirm.getByRole('button', { name: 'Remove passkey' }).click();

        await expect(stepUp.getByLabel('Password', { exact: true })).toBeFocused();
        await stepUp.getByRole('button', { name: 'Use a passkey instead' }).click();
        await expect(stepUp.getByRole('button', { name: 'Use a passkey' })).toBeFocused();
        await checkBothWidths(page, testInfo, { name: 'step-up-passkey', of: stepUp });
        await stepUp.getByRole('button', { name: 'Use a passkey' }).click();
        await expect(stepUp).toBeHidden();

        await expect(card.getByText('No passkeys yet')).toBeVisible();
        await expect(log).toContainText('Confirmed it was you with a passkey');
        await expect(log).toContainText('Removed a passkey');
        await expect(
          page.getByRole('region', { name: /^Two-step verification/ }).getByText('Off', {
            exact: true,
          }),
        ).toBeVisible();
      });
    } catch (error) {
      await testInfo.attach('configured-server.log', { body: server.output() });
      throw error;
    } finally {
      await context.close();
    }
  });
});
