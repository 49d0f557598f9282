// Billing I in the browser: an owner on the Standard trial subscribes to Professional through the
// sandbox gateway's hosted card page, upgrades to Business (prorated preview), downgrades to
// Standard over its workspace limit (warned, acknowledged, then enforced by the API) and
// unsubscribes; a declined card leaves the trial as it was; a replayed checkout POST answers the
// first checkout. Every billing page, the plan-change modal and the hosted page pass axe.
import type { Page, TestInfo } from '@playwright/test';
import {
  billingUrl,
  CARDS,
  createWorkspace,
  HOSTED_PAGE,
  payOnHostedPage,
  subscriptionOf,
  VISA_4242,
} from '../support/billing.ts';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { authOf, ownerScene } from '../support/scenes.ts';
import { signIn } from '../support/session.ts';

/** A page once loaded (no skeleton or busy region left), then axe. */
async function check(page: Page, testInfo: TestInfo) {
  await expect(page.locator('[aria-busy="true"], .mantine-Skeleton-root')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo);
}

const billingNav = (page: Page) => page.getByRole('navigation', { name: 'Billing' });
const toastWith = (page: Page, text: string) =>
  page.locator('[data-position="top-center"]').getByRole('alert').filter({ hasText: text });

test('an owner subscribes, upgrades, downgrades over a limit and unsubscribes', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  test.setTimeout(180_000);
  const scene = await ownerScene(request, mailbox);
  await signIn(page, scene.user);
  const subscription = page.getByTestId('billing-subscription');

  await test.step('Billing shows the Standard trial; Plans, also compared', async () => {
    await page.goto(`/ps/organization-settings/${scene.orgId}/detail`);
    await page
      .getByRole('navigation', { name: 'Organization settings' })
      .getByRole('link', { name: 'Billing' })
      .click();
    await expect(page).toHaveURL(new RegExp(`${billingUrl(scene.orgId, 'subscription')}$`));
    await expect(subscription).toContainText('Standard plan');
    await expect(subscription).toContainText('Trial');
    await expect(page.getByText(/^Your free trial ends on /)).toBeVisible();
    await check(page, testInfo);

    await billingNav(page).getByRole('link', { name: 'Plans' }).click();
    const plans = page.getByRole('region', { name: 'Plans' });
    await expect(plans.getByRole('article')).toHaveCount(4);
    await expect(page.getByTestId('plan-STANDARD')).toContainText('Current plan (trial)');
    // Each button's label fits it (none cut, as "Subscribe to Profes" was in four narrow columns).
    const clipped = await plans
      .getByRole('button')
      .evaluateAll((buttons) =>
        buttons
          .filter((b) =>
            [b, ...b.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1),
          )
          .map((b) => b.textContent),
      );
    expect(clipped, 'plan buttons whose label is cut').toEqual([]);
    await expect(
      page.getByTestId('plan-CUSTOM').getByRole('link', { name: 'Email Now' }),
    ).toHaveAttribute('href', /^mailto:/);
    await check(page, testInfo);

    // Mantine's segmented control: the radios are visually hidden, their labels take the click.
    const view = page.getByRole('radiogroup', { name: 'Plans view' });
    await view.getByText('Compare', { exact: true }).click();
    await expect(view.getByRole('radio', { name: 'Compare' })).toBeChecked();
    const table = page.getByTestId('plan-comparison');
    await expect(table).toBeVisible();
    await expect(table.getByRole('row', { name: /^Price/ })).toContainText('$79.00 / month');
    await check(page, testInfo);
    await view.getByText('Plans', { exact: true }).click();
    await expect(plans.getByRole('article')).toHaveCount(4);
  });

  await test.step('subscribes to Professional on the hosted page with 4242', async () => {
    await page
      .getByTestId('plan-PROFESSIONAL')
      .getByRole('button', { name: 'Subscribe to Professional' })
      .click();
    await expect(page).toHaveURL(HOSTED_PAGE);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pay Portolan');
    await expect(page.getByText('Professional plan, monthly')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Pay $79.00' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
    await payOnHostedPage(page, CARDS.ok);

    await expect(page).toHaveURL(
      new RegExp(`${billingUrl(scene.orgId, 'subscription')}(\\?checkout=[\\w-]+)?$`),
    );
    await expect(
      toastWith(page, 'Thank you! Your payment went through and your subscription is active.'),
    ).toBeVisible();
    await expect(subscription).toContainText('Professional plan');
    await expect(subscription).toContainText('Active');
    await expect(subscription).toContainText('$79.00 / month');
    await check(page, testInfo);
    expect(await subscriptionOf(request, scene)).toMatchObject({
      status: 'ACTIVE',
      plan: { type: 'PROFESSIONAL' },
    });

    await billingNav(page).getByRole('link', { name: 'Cards' }).click();
    const card = page
      .getByRole('list', { name: 'Cards' })
      .getByRole('listitem', { name: VISA_4242 });
    await expect(card).toBeVisible();
    await expect(page.getByTestId('card-4242')).toContainText('Default');
    await check(page, testInfo);

    await billingNav(page).getByRole('link', { name: 'Usage' }).click();
    await expect(page.getByTestId('usage-max_workspaces')).toContainText('2 of 10');
    await check(page, testInfo);
  });

  await test.step('upgrades to Business with a prorated preview', async () => {
    await billingNav(page).getByRole('link', { name: 'Plans' }).click();
    await expect(page.getByTestId('plan-PROFESSIONAL')).toContainText('Current plan');
    await page
      .getByTestId('plan-BUSINESS')
      .getByRole('button', { name: 'Upgrade to Business' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Business' });
    const invoice = dialog.getByTestId('plan-change-invoice');
    await expect(invoice.getByRole('row', { name: /^Unused time on Professional/ })).toContainText(
      '-$7',
    );
    await expect(invoice.getByRole('row', { name: /^Remaining time on Business/ })).toContainText(
      '$19',
    );
    // Subscribed moments ago: Business's price less Professional's, about $120.00.
    await expect(invoice.getByRole('row', { name: /^Total due today/ })).toContainText(
      /\$1(19\.\d\d|20\.00)$/,
    );
    await expect(dialog.getByTestId('plan-change-resources')).toBeVisible();
    await expect(dialog.getByTestId(/^plan-change-warning-/)).toHaveCount(0);
    await check(page, testInfo);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(toastWith(page, 'Your organization is now on the Business plan.')).toBeVisible();
    await expect(page.getByTestId('plan-BUSINESS')).toContainText('Current plan');

    await billingNav(page).getByRole('link', { name: 'Subscription' }).click();
    await expect(subscription).toContainText('Business plan');
    await expect(subscription).toContainText('$199.00 / month');
  });

  await test.step('with 5 workspaces, downgrades to Standard after the warning', async () => {
    for (const name of ['Quay', 'Jetty', 'Slipway']) {
      const res = await createWorkspace(request, scene, name);
      expect(res.status(), await res.text()).toBe(201);
    }
    await billingNav(page).getByRole('link', { name: 'Plans' }).click();
    await page
      .getByTestId('plan-STANDARD')
      .getByRole('button', { name: 'Downgrade to Standard' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Downgrade to Standard' });
    const warning = dialog.getByTestId('plan-change-warning-clients');
    await expect(warning).toContainText('You have 5 workspaces; the Standard plan allows 3.');
    await expect(dialog.getByTestId(/^plan-change-warning-/)).toHaveCount(1);
    await expect(dialog.getByTestId('plan-change-invoice')).toContainText(
      /Total due today\s*\$0\.00/,
    );
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    await expect(confirm).toBeDisabled();
    await check(page, testInfo);
    await dialog.getByRole('checkbox', { name: "I've understood" }).check();
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(dialog).toBeHidden();
    await expect(toastWith(page, 'Your organization is now on the Standard plan.')).toBeVisible();

    await billingNav(page).getByRole('link', { name: 'Subscription' }).click();
    await expect(subscription).toContainText('Standard plan');
    await expect(subscription).toContainText('Active');
    await billingNav(page).getByRole('link', { name: 'Usage' }).click();
    await expect(page.getByTestId('usage-max_workspaces')).toContainText('5 of 3');

    const refused = await createWorkspace(request, scene, 'Breakwater');
    expect(refused.status(), await refused.text()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('PLAN_LIMIT_REACHED');
  });

  await test.step('unsubscribes: the subscription ends with its period', async () => {
    await billingNav(page).getByRole('link', { name: 'Subscription' }).click();
    await subscription.getByRole('button', { name: 'Unsubscribe' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsubscribe?' });
    await expect(dialog).toContainText('The Standard plan stays active until');
    await dialog.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByText(
        /^You unsubscribed: the subscription stays active until .+ and will not renew\.$/,
      ),
    ).toBeVisible();
    await expect(subscription).toContainText('Ends on');
    await expect(subscription.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);
    await check(page, testInfo);
    expect(await subscriptionOf(request, scene)).toMatchObject({
      status: 'ACTIVE',
      cancel_at_period_end: true,
    });
  });
});

test('a declined card leaves the organization on its trial and says why', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  await signIn(page, scene.user);
  await page.goto(billingUrl(scene.orgId, 'plans'));
  await page
    .getByTestId('plan-PROFESSIONAL')
    .getByRole('button', { name: 'Subscribe to Professional' })
    .click();
  await payOnHostedPage(page, CARDS.declined);

  // The hosted page says so, and links back to the portal's plans.
  await expect(page).toHaveURL(HOSTED_PAGE);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment not completed');
  await expect(page.getByRole('status')).toHaveText('Your card was declined. Try another card.');
  await expectNoSeriousA11yViolations(page, testInfo);
  await page.getByRole('link', { name: 'Back to Portolan' }).click();

  await expect(page).toHaveURL(
    new RegExp(`${billingUrl(scene.orgId, 'plans')}\\?checkout=[\\w-]+$`),
  );
  const failed = page.getByTestId('checkout-failed');
  await expect(failed).toContainText('The payment did not go through');
  // The gateway's reason, once (it already says to try another card).
  await expect(failed).toContainText('Your card was declined. Try another card.');
  await expect(failed).not.toContainText(/another card.*another card/);
  await check(page, testInfo);
  await expect(page.getByTestId('plan-STANDARD')).toContainText('Current plan (trial)');
  expect(await subscriptionOf(request, scene)).toMatchObject({
    status: 'TRIALING',
    plan: { type: 'STANDARD' },
  });

  // No card was kept either.
  const cards = await request.get(`/v1/organizations/${scene.orgId}/payment-methods/`, {
    headers: authOf(scene),
  });
  expect(((await cards.json()) as { results: unknown[] }).results).toEqual([]);
});

test('a checkout POST replayed with its Idempotency-Key answers the same checkout', async ({
  request,
  mailbox,
}) => {
  const scene = await ownerScene(request, mailbox);
  const checkout = (key: string, plan = 'PROFESSIONAL') =>
    request.post(`/v1/organizations/${scene.orgId}/checkout/`, {
      headers: { ...authOf(scene), 'Idempotency-Key': key },
      data: { plan },
    });
  const key = `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`;

  const first = await checkout(key);
  expect(first.status(), await first.text()).toBe(201);
  const replay = await checkout(key);
  expect(replay.status(), await replay.text()).toBe(201);
  const a = (await first.json()) as { id: string; url: string; status: string };
  const b = (await replay.json()) as { id: string; url: string };
  expect(a.status).toBe('OPEN');
  expect(b).toEqual(a);

  // The key is what made them one: another key opens another checkout, and the same key for
  // another request is refused.
  const other = await checkout(`${key}-other`);
  expect(other.status(), await other.text()).toBe(201);
  expect(((await other.json()) as { id: string }).id).not.toBe(a.id);
  const misuse = await checkout(key, 'BUSINESS');
  expect(misuse.status(), await misuse.text()).toBe(409);
});
