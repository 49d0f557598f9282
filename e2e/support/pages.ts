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

export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /^sign in$/i }).click();
}

export async function fillRegistration(page: Page, user: NewUser): Promise<void> {
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
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

export async function expectDashboard(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/ps\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Portal Dashboard' })).toBeVisible();
}
