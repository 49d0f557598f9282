// Turning on two-step verification from My Settings → Security as a person would: the QR code's
// key read from the page, a code computed here as an authenticator app would (support/totp.ts),
// then the recovery codes shown once.
import { expect, type Page } from '@playwright/test';
import { enterCode } from './pages.ts';
import { totpCode, totpStep } from './totp.ts';

/** The Two-step verification card of My Settings → Security. */
export const twoStepCard = (page: Page) =>
  page.getByRole('region', { name: /^Two-step verification/ });

/** Starts the setup; the key shown beside the QR code (base32, no spaces). */
export async function startTotpSetup(page: Page): Promise<string> {
  const card = twoStepCard(page);
  await card.getByRole('button', { name: 'Set up authenticator app' }).click();
  await expect(
    card.getByRole('img', { name: 'QR code to scan with your authenticator app' }),
  ).toBeVisible();
  const secret = (await card.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  return secret;
}

/**
 * Enters the app's code of this moment and turns the app on: the step whose code was used (the
 * server refuses it again) and the recovery codes, still on screen.
 */
export async function confirmTotpSetup(page: Page, secret: string) {
  const card = twoStepCard(page);
  const step = totpStep();
  await enterCode(page, totpCode(secret, step));
  await card.getByRole('button', { name: 'Turn on' }).click();
  const list = card.getByRole('list', { name: 'Your recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  return { step, recoveryCodes: await list.getByRole('listitem').allInnerTexts() };
}

/** The whole setup, the recovery codes put away: the card says On. */
export async function turnOnTotp(page: Page) {
  const secret = await startTotpSetup(page);
  const confirmed = await confirmTotpSetup(page, secret);
  const card = twoStepCard(page);
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  return { secret, ...confirmed };
}
