// Forgot password, end to end: from the sign-in page through the e-mailed code to a new password
// that signs in, while the old one no longer does; and a reset link with a bad token.
import {
  expect,
  expectNoSeriousA11yViolations,
  strongPassword,
  test,
} from '../support/fixtures.ts';
import { createActiveUser } from '../support/accounts.ts';
import { extractCode } from '../support/mailbox.ts';
import { enterCode, expectDashboard, fillSignIn, pathAndQuery } from '../support/pages.ts';
import { expectTopCentre } from '../support/session.ts';

const INVALID_CREDENTIALS = 'The e-mail or password is incorrect.';
const PASSWORD_RESET_DONE = 'Your password has been changed. Sign in with your new password.';

test('forgot password: the e-mailed code sets a new password; it signs in and the old one fails', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  // Its own account: a reset ends every session of the user.
  const user = await createActiveUser(request, mailbox, 'forgot');
  const newPassword = strongPassword();

  await test.step('from /login follow "Forgot password?"', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  });

  const requestedAt = new Date();
  await test.step('ask for a code with the e-mail of the account', async () => {
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('heading', { name: 'Enter the code' })).toBeVisible();
  });

  await test.step('enter the code from the e-mail', async () => {
    const mail = await mailbox.waitFor(user.email, {
      subject: /password reset code/i,
      since: new Date(requestedAt.getTime() - 1_000),
    });
    await enterCode(page, extractCode(mail.text));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    // The last step offers no way "back to sign in": the user is setting the new password.
    await expect(page.getByRole('link', { name: 'Back to sign in' })).toHaveCount(0);
    await expect(page.getByText('Remembered it?')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  await test.step('choose the new password and land on /login', async () => {
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
    await page
      .getByRole('textbox', { name: 'Confirm new password', exact: true })
      .fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page).toHaveURL(/\/login$/);
    const done = page.getByRole('alert').filter({ hasText: PASSWORD_RESET_DONE });
    await expect(done).toBeVisible();
    await expectTopCentre(page, done);
    // The e-mail is carried over to the sign-in form.
    await expect(page.getByRole('textbox', { name: 'E-mail', exact: true })).toHaveValue(
      user.email,
    );
  });

  await test.step('the old password is refused', async () => {
    await fillSignIn(page, user.email, user.password);
    await expect(page.getByText(INVALID_CREDENTIALS, { exact: true })).toBeVisible();
    expect(pathAndQuery(page)).toBe('/login');
  });

  await test.step('the new password signs in to the Portal Dashboard', async () => {
    await fillSignIn(page, user.email, newPassword);
    await expectDashboard(page);
  });
});

test('/reset-password with a garbage token shows a clear error when submitted', async ({
  page,
}) => {
  await page.goto('/reset-password?token=not-a-real-token');
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  const password = strongPassword();
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(password);
  await page.getByRole('textbox', { name: 'Confirm new password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();

  const alert = page.getByRole('alert').filter({ hasText: 'This reset link has expired' });
  await expect(alert).toHaveText(
    'This reset link has expired or was already used. Start the reset again.',
  );
  await expect(alert.getByRole('link', { name: 'Start the reset again' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  // Nothing happened: still on the reset page.
  expect(pathAndQuery(page)).toBe('/reset-password?token=not-a-real-token');
});
