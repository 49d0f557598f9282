// Page helpers for the auth screens, by accessible role and label (never by CSS class).
import { expect, type Page } from '@playwright/test';

export interface NewUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** The path and query of the page's URL, e.g. "/login?path=%2Fps%2Fdashboard". */
export function pathAndQuery(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** A text field by its accessible name (Mantine's required asterisk is not part of it). */
function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await field(page, 'E-mail').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: /^sign in$/i }).click();
}

export async function fillRegistration(page: Page, user: NewUser): Promise<void> {
  await field(page, 'E-mail').fill(user.email);
  await field(page, 'First name').fill(user.firstName);
  await field(page, 'Last name').fill(user.lastName);
  await field(page, 'Password').fill(user.password);
  await field(page, 'Confirm password').fill(user.password);
  await page.getByRole('button', { name: /^(sign up|register|create account)$/i }).click();
}

/** Type a 6-digit code into the code step: one field, or six single-digit boxes. */
export async function enterCode(page: Page, code: string): Promise<void> {
  const fields = page.getByRole('textbox', { name: /code/i });
  await expect(fields.first()).toBeVisible();
  if ((await fields.count()) === 1) {
    await fields.fill(code);
  } else {
    await fields.first().click();
    await page.keyboard.type(code);
  }
}

/** The Portal Dashboard: its URL and title, and its one heading, the greeting. */
export async function expectDashboard(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/ps\/dashboard$/);
  await expect(page).toHaveTitle('Portal Dashboard | Portolan');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
}

/**
 * At 390 px the page does not scroll sideways (tables fold their columns under the first), then
 * back to the desktop width. Polled: the navigation folds away with a transition after a resize.
 */
export async function expectNoSidewaysScrollOnPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1440, height: 900 });
}
