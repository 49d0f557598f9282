// Changing the account's e-mail address (issue 20 item 7) against the real server: from My
// Settings → Profile, the new address and the password, then the 6-digit code read from the mail
// captured for the new address; the profile shows it, the former address got a notice, and the
// account signs in with the new one. Axe on both steps at 1440 and 390 px.
import { createActiveUser } from '../support/accounts.ts';
import { checkBothWidths } from '../support/axe.ts';
import { expect, extractCode, test, uniqueEmail } from '../support/fixtures.ts';
import { enterCode } from '../support/pages.ts';
import { signIn } from '../support/session.ts';

test('an account changes its e-mail address with the code sent to the new one', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const user = await createActiveUser(request, mailbox, 'email-change');
  const next = uniqueEmail('email-changed');
  await signIn(page, user, '/ps/profile');
  const section = page.getByRole('region', { name: 'E-mail address' });
  await expect(section).toContainText(user.email);

  const asked = new Date();
  await section.getByRole('button', { name: 'Change e-mail address' }).click();
  await section.getByRole('textbox', { name: /^New e-mail address/ }).fill(next);
  await section.getByLabel(/^Your password/).fill(user.password);
  await checkBothWidths(page, testInfo, { name: 'email-change-request', of: section });
  await section.getByRole('button', { name: 'Send code' }).click();

  await expect(section).toContainText(`We sent a 6-digit code to ${next}.`);
  await checkBothWidths(page, testInfo, { name: 'email-change-code', of: section });
  const mail = await mailbox.waitFor(next, { subject: /Confirm your new/i, since: asked });
  await enterCode(page, extractCode(mail.text));
  await section.getByRole('button', { name: 'Confirm' }).click();

  await expect(page.getByText(`Your e-mail address is now ${next}.`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'E-mail', exact: true })).toHaveValue(next);
  await expect(section).toContainText(next);
  await mailbox.waitFor(user.email, { subject: /was changed/i, since: asked });

  const login = await request.post('/v1/rest-auth/app/login/', {
    data: { email: next, password: user.password },
  });
  expect(login.status(), await login.text()).toBe(200);
});
