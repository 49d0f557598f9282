// My Settings → Security, "Where you're signed in" (issue 20 item 6) against the real server: an account
// signed in on a laptop and on a phone sees both, signs the phone out (the phone is asked to sign
// in again at its next request), then signs every other session out; axe at 1440 and 390 px,
// with the confirmation dialog open.
import { createActiveUser } from '../support/accounts.ts';
import { expect, expectNoSeriousA11yViolations } from '../support/fixtures.ts';
import { signIn, test } from '../support/session.ts';

const PHONE_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

test('an account signs its phone out, then every other session', async ({
  page,
  browser,
  request,
  mailbox,
}, testInfo) => {
  const user = await createActiveUser(request, mailbox, 'sessions');
  const phoneContext = await browser.newContext({ userAgent: PHONE_AGENT });
  const phone = await phoneContext.newPage();
  try {
    // The phone's page reads the subscriptions 3 s after loading (spec §4): once it has, its next
    // request is the one this test makes, not a background read meeting the revoked session.
    const phoneSettled = phone.waitForResponse((r) =>
      r.url().includes('/v1/me/organizations/and/subscriptions/'),
    );
    await signIn(phone, user);
    await phoneSettled;
    await signIn(page, user, '/ps/profile?tab=security');

    const card = page.getByRole('region', { name: 'Where you’re signed in' });
    const list = card.getByRole('list', { name: 'Your sessions' });
    const phoneRow = list.getByRole('listitem').filter({ hasText: 'Safari 17 on iOS 17.4' });
    const thisRow = list.getByRole('listitem').filter({ hasText: 'This device' });
    await expect(phoneRow).toBeVisible();
    await expect(thisRow).toHaveCount(1);
    await expect(thisRow.getByRole('button')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, testInfo);

    await phoneRow.getByRole('button', { name: 'Sign out Safari 17 on iOS 17.4' }).click();
    await expect(page.getByText('Safari 17 on iOS 17.4 is signed out.')).toBeVisible();
    await expect(phoneRow).toHaveCount(0);
    // The phone's next request meets the ended session: it is asked to sign in again.
    await phone.getByRole('link', { name: 'My Settings' }).first().click();
    await expect(phone).toHaveURL(/\/login\?/);

    // Signed in again on the phone; at 390 px the laptop page still reads and works.
    await signIn(phone, user);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(phoneRow).toBeVisible();
    await card.getByRole('button', { name: 'Sign out other sessions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
    await dialog.getByRole('button', { name: 'Sign out other sessions' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/other sessions? signed out\./)).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(card.getByRole('button', { name: 'Sign out other sessions' })).toBeDisabled();
    await phone.reload();
    await expect(phone).toHaveURL(/\/login\?/);
  } finally {
    await phoneContext.close();
  }
});
