// The organization's webhooks (issue 21 items 2 and 8) in the browser, on an organization of this
// spec's own: its OWNER adds an endpoint, sees its signing secret at once, opens it, sends a test
// event and sees its delivery in the log (the address cannot be reached from here: the delivery
// fails or waits, only its row is looked for), reveals the secret again, then deletes the
// endpoint. Axe at 1440 and 390 px on the add dialog, the secret, the list and the endpoint with
// its log; with E2E_SHOTS_DIR set, each is photographed at both widths.
import { checkBothWidths } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';
import { ownerScene } from '../support/scenes.ts';
import { expectNoSidewaysScrollOnPhone } from '../support/pages.ts';
import { signIn } from '../support/session.ts';

const HOOK_URL = 'https://hooks.example.com/portolan';

test('an owner adds a webhook endpoint, tests it, reveals its secret, then deletes it', async ({
  page,
  context,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const list = page.getByRole('region', { name: 'Webhooks' });
  let secret = '';

  await test.step('the owner adds an endpoint for member events and paid invoices', async () => {
    await signIn(page, scene.user, `/ps/organization-settings/${scene.orgId}/webhooks`);
    await expect(page.getByRole('link', { name: 'Webhooks', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(list.getByText('No webhook endpoints yet')).toBeVisible();
    await list.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByRole('textbox', { name: /^URL/ }).fill(HOOK_URL);
    await dialog.getByRole('textbox', { name: /^Description/ }).fill('Back office');
    await dialog.getByRole('button', { name: 'Select all Members' }).click();
    await dialog.getByRole('checkbox', { name: 'invoice.paid' }).check();
    await expect(dialog.getByRole('checkbox', { name: 'member.role_changed' })).toBeChecked();
    await checkBothWidths(page, testInfo, { name: 'webhooks-create', of: dialog });
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();

    const shown = page.getByRole('dialog', { name: 'Endpoint added: its signing secret' });
    secret = await shown.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_[\w+/=]{40,}$/);
    await shown.getByRole('button', { name: 'Copy secret' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await checkBothWidths(page, testInfo, { name: 'webhooks-secret', of: shown });
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
  });

  await test.step('the list shows it; on a phone nothing scrolls sideways', async () => {
    const row = list.getByRole('row').filter({ hasText: HOOK_URL });
    await expect(row).toContainText('Back office');
    await expect(row).toContainText('member.added');
    await expect(row).not.toContainText(secret);
    await checkBothWidths(page, testInfo, { name: 'webhooks-list', of: list });
    await expectNoSidewaysScrollOnPhone(page);
    await row.getByRole('link', { name: HOOK_URL }).click();
  });

  await test.step('a test event shows in the delivery log', async () => {
    await expect(page.getByRole('heading', { name: HOOK_URL })).toBeVisible();
    const log = page.getByRole('region', { name: 'Delivery log' });
    await expect(log.getByText(/^No deliveries yet/)).toBeVisible();
    await log.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByText('A test event is on its way')).toBeVisible();
    const row = log.getByRole('row').filter({ hasText: 'webhook.test' });
    await expect(async () => {
      if (!(await row.isVisible())) await page.reload();
      await expect(row).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    // Its attempts open under it (a failed one, or none yet: this address is out of reach here).
    const toggle = row.getByRole('button', { name: /^webhook\.test/ });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await checkBothWidths(page, testInfo, {
      name: 'webhook-detail',
      of: page.getByRole('region', { name: HOOK_URL }),
    });
    await expectNoSidewaysScrollOnPhone(page);
  });

  await test.step('the owner reveals the secret, then deletes the endpoint', async () => {
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(shown.getByRole('textbox', { name: 'Signing secret' })).toHaveValue(secret);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();

    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(page.getByText(`The endpoint ${HOOK_URL} is deleted.`)).toBeVisible();
    await expect(list.getByText('No webhook endpoints yet')).toBeVisible();
  });
});
