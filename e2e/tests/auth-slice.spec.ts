// The foundation slice in a real browser against the real built server: the guard, sign-up with
// the e-mailed activation code, sign-in, the dashboard, the way back to a wanted page, and axe.
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

test('an anonymous visit to the dashboard lands on the login page with the wanted path', async ({
  page,
}) => {
  await page.goto('/ps/dashboard');
  await expect(page).toHaveURL(/\/login\?/);
  expect(pathAndQuery(page)).toBe('/login?path=%2Fps%2Fdashboard');
  await expect(page.getByRole('button', { name: /^sign in$/i })).toBeVisible();
});

test('register, activate with the e-mailed code, sign in, see the dashboard; then back to a wanted page', async ({
  page,
  browser,
  mailbox,
}) => {
  const user: NewUser = {
    email: uniqueEmail('register'),
    password: strongPassword(),
    firstName: 'Ada',
    lastName: 'Lovelace',
  };

  await test.step('register', async () => {
    await page.goto('/register');
    await fillRegistration(page, user);
  });

  await test.step('activate with the code from the e-mail', async () => {
    const mail = await mailbox.waitFor(user.email, { subject: /activation code/i });
    const code = extractCode(mail.text);
    await enterCode(page, code);
    await page.getByRole('button', { name: /^(activate|confirm|verify)/i }).click();
  });

  await test.step('sign in and see the dashboard', async () => {
    // Activation either signs the user in or leads to the login page.
    await page.waitForURL((url) => url.pathname === '/login' || url.pathname.startsWith('/ps/'));
    if (new URL(page.url()).pathname === '/login')
      await fillSignIn(page, user.email, user.password);
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
