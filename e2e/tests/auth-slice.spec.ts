// The foundation slice in a real browser against the real built server: the guard, sign-up with
// the e-mailed activation code that signs the new user in (no password typed again), the
// dashboard, sign-in and the way back to a wanted page, and axe.
import {
  expect,
  expectNoSeriousA11yViolations,
  extractCode,
  strongPassword,
  test,
  uniqueEmail,
} from '../support/fixtures.ts';
import {
  enterCode,
  expectDashboard,
  fillRegistration,
  fillSignIn,
  pathAndQuery,
  type NewUser,
} from '../support/pages.ts';
import { createActiveUser } from '../support/accounts.ts';
import { storedToken } from '../support/session.ts';

test('an anonymous visit to the dashboard lands on the login page with the wanted path', async ({
  page,
}) => {
  await page.goto('/ps/dashboard');
  await expect(page).toHaveURL(/\/login\?/);
  expect(pathAndQuery(page)).toBe('/login?path=%2Fps%2Fdashboard');
  await expect(page.getByRole('button', { name: /^sign in$/i })).toBeVisible();
});

test('register, enter the e-mailed code, land signed in on the dashboard; later sign in back to a wanted page', async ({
  page,
  browser,
  mailbox,
}, testInfo) => {
  const user: NewUser = {
    email: uniqueEmail('register'),
    password: strongPassword(),
    firstName: 'Ada',
    lastName: 'Lovelace',
  };

  await test.step('register', async () => {
    await page.goto('/register');
    await fillRegistration(page, user);
    await expect(page.getByRole('heading', { level: 1, name: 'Check your e-mail' })).toBeVisible();
    await expect(page.getByText(`We sent a code to ${user.email}.`)).toBeVisible();
  });

  await test.step('a wrong code is a field error', async () => {
    const mail = await mailbox.waitFor(user.email, { subject: /activation code/i });
    const right = extractCode(mail.text);
    const wrong = right === '000000' ? '111111' : '000000';
    await enterCode(page, wrong);
    await page.getByRole('button', { name: 'Activate account' }).click();
    const problem = page.getByText(
      'That code is not right. Check the e-mail we sent and try again.',
    );
    await expect(problem).toBeVisible();
    const first = page.getByRole('textbox', { name: /^Activation code, digit 1/ });
    await expect(first).toHaveAttribute('aria-invalid', 'true');
    await expect(first).toHaveAccessibleDescription(/That code is not right/);
    // The red of every field error (the theme's error colour), not the text colour.
    const [errorColour, textColour] = await problem.evaluate((el) => [
      getComputedStyle(el).color,
      getComputedStyle(el.closest('form')!).color,
    ]);
    expect(errorColour).not.toBe(textColour);
    expect(errorColour).toMatch(/^rgb\((\d+), (\d+), (\d+)\)$/);
    const [r, g, b] = errorColour.match(/\d+/g)!.map(Number);
    expect(r! > g! + 60 && r! > b! + 60, `${errorColour} is red`).toBe(true);
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  await test.step('the right code signs the user in and lands on the dashboard', async () => {
    const mail = await mailbox.waitFor(user.email, { subject: /activation code/i });
    await enterCode(page, extractCode(mail.text));
    await page.getByRole('button', { name: 'Activate account' }).click();
    await expectDashboard(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
    await expect(page.getByText(`Signed in as ${user.email}`)).toBeVisible();
    expect(await storedToken(page), 'a session token is stored').toBeTruthy();
    // Nobody asked for the password again: the sign-in page was never shown.
    await expect(page.getByRole('button', { name: /^sign in$/i })).toHaveCount(0);
    // A reload keeps the session.
    await page.reload();
    await expectDashboard(page);
  });

  await test.step('anonymous visit of a protected page, sign in, back on that page', async () => {
    const context = await browser.newContext();
    try {
      const anonymous = await context.newPage();
      await anonymous.goto('/ps/profile');
      await expect(anonymous).toHaveURL(/\/login\?/);
      expect(pathAndQuery(anonymous)).toBe('/login?path=%2Fps%2Fprofile');
      await fillSignIn(anonymous, user.email, user.password);
      await expect(anonymous).toHaveURL(/\/ps\/profile$/);
      await expect(anonymous).toHaveTitle(/My Settings/);
    } finally {
      await context.close();
    }
  });
});

test('registering an address that already has an account looks the same (no "account exists")', async ({
  page,
  request,
  mailbox,
}) => {
  const existing = await createActiveUser(request, mailbox, 'existing');
  await page.goto('/register');
  await fillRegistration(page, { ...existing, password: strongPassword() });
  await expect(page.getByRole('heading', { level: 1, name: 'Check your e-mail' })).toBeVisible();
  await expect(page.getByText(`We sent a code to ${existing.email}.`)).toBeVisible();
  await expect(page.getByText(/already exists/i)).toHaveCount(0);
});

test('a wrong password shows the error and keeps the user on the login page', async ({
  page,
  request,
  mailbox,
}) => {
  const user = await createActiveUser(request, mailbox, 'wrong-password');
  await page.goto('/login');
  await fillSignIn(page, user.email, `${user.password}-wrong`);
  await expect(page.getByText('The e-mail or password is incorrect.')).toBeVisible();
  expect(pathAndQuery(page)).toBe('/login');

  await fillSignIn(page, `  ${user.email.toUpperCase()} `, user.password);
  await expectDashboard(page);
});

for (const path of ['/login', '/register']) {
  test(`${path} has no serious or critical accessibility violations`, async ({
    page,
  }, testInfo) => {
    await page.goto(path);
    await expect(page.getByRole('textbox', { name: 'E-mail', exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
  });
}
