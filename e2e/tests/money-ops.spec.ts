// Money operations (issue 22 item 8) in the browser, as the demo owner (the demo organization has
// a subscription paid with a default card and $25.00 of balance): billing details (the tax ID
// checked for the country, answered normalized); the wallet settings: low-balance alerts, the
// organization's monthly cap, auto top-up and a workspace's cap in its dialog; charges made
// through the API cross an alert, which the bell shows with its link; the usage report shows
// them by service and by workspace with its chart, and downloads as CSV; an operator's refund
// issues a credit note, told in the bell whose link leads to it under the invoices, and its PDF
// prints the billing details. Axe at 1440 and 390 px on each page and the dialog, none scrolling
// sideways on a phone; with E2E_SHOTS_DIR set, each is photographed at both widths.
import fs from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { checkBothWidths } from '../support/axe.ts';
import { apiToken } from '../support/billing.ts';
import { DEMO_ORGANIZATION, DEMO_OWNER, DEMO_WORKSPACES } from '../support/demo.ts';
import { expect, test } from '../support/fixtures.ts';
import { expectNoSidewaysScrollOnPhone } from '../support/pages.ts';
import { signIn } from '../support/session.ts';

const billingNav = (page: Page) => page.getByRole('navigation', { name: 'Billing' });
const toast = (page: Page, text: string) =>
  page.locator('[data-position="top-center"]').getByText(text);

/** Closes the toasts on screen and waits until they are gone. */
async function dismissToasts(page: Page) {
  const toasts = page.locator('[data-position="top-center"] [role="alert"]');
  // One at a time, the first each time: a closed toast leaves the list (and one may time out).
  const close = page.getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < 10 && (await close.count()) > 0; i++)
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => {});
  await expect(toasts).toHaveCount(0);
}

/** The demo organization's id and its workspaces' ids by name, through the API. */
async function demoOrganization(request: APIRequestContext, auth: Record<string, string>) {
  const mine = await request.get('/v1/me/organizations/and/clients/', { headers: auth });
  expect(mine.ok(), await mine.text()).toBe(true);
  const entries = (await mine.json()) as {
    results: { organization: { id: string; name: string } }[];
  };
  const orgId = entries.results.find((e) => e.organization.name === DEMO_ORGANIZATION)!.organization
    .id;
  const clients = await request.get(`/v1/organizations/${orgId}/clients/?limit=50`, {
    headers: auth,
  });
  expect(clients.ok(), await clients.text()).toBe(true);
  const list = ((await clients.json()) as { results: { id: string; name: string }[] }).results;
  return { orgId, workspaces: new Map(list.map((c) => [c.name, c.id])) };
}

async function pdfText(path: string): Promise<string> {
  const bytes = await fs.readFile(path);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), {
    mergePages: true,
  });
  return text;
}

test('the demo owner sets billing details and wallet settings, then sees usage and a credit note', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, DEMO_OWNER);
  const auth = { Authorization: `Bearer ${token}` };
  const { orgId, workspaces } = await demoOrganization(request, auth);
  const billing = `/ps/organization-settings/${orgId}/billing`;
  const northAtlantic = DEMO_WORKSPACES[0]!;

  await test.step('billing details: the tax ID is checked for the country, then saved', async () => {
    await signIn(page, DEMO_OWNER, `${billing}/details`);
    const form = page.getByRole('form', { name: 'Billing details' });
    await expect(form.getByRole('textbox', { name: 'Tax ID' })).toBeVisible();
    await checkBothWidths(page, testInfo, { name: 'billing-details-empty' });

    await form.getByRole('textbox', { name: /Company name/ }).fill('Demo Shipping Co. Ltd');
    await form.getByRole('textbox', { name: /Address/ }).fill('Hafenstraße 1\n20457 Hamburg');
    await form.getByRole('combobox', { name: /Country/ }).fill('Germ');
    await page.getByRole('option', { name: 'Germany' }).click();
    const taxId = form.getByRole('textbox', { name: 'Tax ID (VAT number)' });
    await taxId.fill('DE 1234');
    await taxId.blur();
    await expect(
      form.getByText('Not a valid VAT number for this country. It is written like DE123456789.'),
    ).toBeVisible();
    await taxId.fill('de 123 456 789');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(
      toast(page, 'The billing details are saved. Invoices from now on carry them.'),
    ).toBeVisible();
    await expect(taxId).toHaveValue('DE123456789');
    await page.reload();
    await expect(form.getByRole('textbox', { name: /Company name/ })).toHaveValue(
      'Demo Shipping Co. Ltd',
    );
    await checkBothWidths(page, testInfo, { name: 'billing-details' });
    await expectNoSidewaysScrollOnPhone(page);
  });

  await test.step('wallet settings: alerts, the organization’s cap and auto top-up', async () => {
    await billingNav(page).getByRole('link', { name: 'Wallet settings' }).click();
    const alerts = page.getByRole('form', { name: 'Low-balance alerts' });
    await expect(alerts.getByText('No alerts: nobody is told')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Workspace caps' })).toBeVisible();
    await checkBothWidths(page, testInfo, { name: 'wallet-settings-empty' });

    await alerts.getByRole('button', { name: 'Add threshold' }).click();
    await alerts.getByRole('textbox', { name: /^Threshold 1/ }).fill('5');
    await alerts.getByRole('button', { name: 'Add threshold' }).click();
    await alerts.getByRole('textbox', { name: /^Threshold 2/ }).fill('22');
    await alerts.getByRole('button', { name: 'Save alerts' }).click();
    await expect(toast(page, 'The low-balance alerts are saved.')).toBeVisible();
    // The server keeps them highest first.
    await expect(alerts.getByRole('textbox', { name: /^Threshold 1/ })).toHaveValue('22');

    const cap = page.getByRole('region', { name: 'Monthly spend cap' });
    await cap.getByRole('radio', { name: 'Cap at an amount' }).check();
    await cap.getByRole('textbox', { name: /Monthly limit/ }).fill('500');
    await cap.getByRole('button', { name: 'Save cap' }).click();
    await expect(toast(page, `The monthly cap of ${DEMO_ORGANIZATION} is saved.`)).toBeVisible();
    await expect(cap.getByText(/of \$500\.00 spent since/)).toBeVisible();
    await expect(cap.getByRole('progressbar')).toBeVisible();

    const auto = page.getByRole('form', { name: 'Auto top-up' });
    await auto.getByRole('switch', { name: /Top up automatically/ }).check();
    await auto.getByRole('textbox', { name: /When the balance falls below/ }).fill('5');
    await auto.getByRole('combobox', { name: /Fund package to buy/ }).click();
    await page.getByRole('option', { name: /^Starter/ }).click();
    await auto.getByRole('button', { name: 'Save auto top-up' }).click();
    await expect(toast(page, 'Auto top-up is on.')).toBeVisible();
    await expect(auto.getByRole('button', { name: 'Save auto top-up' })).toBeDisabled();
    // Dismissed, so the dialog's overlay does not dim a toast still showing under it for axe.
    await dismissToasts(page);
  });

  await test.step('a workspace’s cap, in its dialog', async () => {
    const caps = page.getByRole('table', { name: 'Workspace caps' });
    await caps.getByRole('button', { name: `Edit the cap of ${northAtlantic}` }).click();
    const dialog = page.getByRole('dialog', { name: `Monthly cap of ${northAtlantic}` });
    await dialog.getByRole('radio', { name: 'Cap at an amount' }).check();
    await dialog.getByRole('textbox', { name: /Monthly limit/ }).fill('100');
    await checkBothWidths(page, testInfo, { name: 'wallet-workspace-cap-dialog', of: dialog });
    await dialog.getByRole('button', { name: 'Save cap' }).click();
    await expect(toast(page, `The monthly cap of ${northAtlantic} is saved.`)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(caps.getByRole('row', { name: new RegExp(northAtlantic) })).toContainText(
      '$100.00',
    );
    await checkBothWidths(page, testInfo, { name: 'wallet-settings' });
    await expectNoSidewaysScrollOnPhone(page);
  });

  await test.step('charges cross the $22.00 alert: the bell says so, with a link', async () => {
    const charge = async (service: string, quantity: number, clientId?: string) => {
      const res = await request.post(`/v1/organizations/${orgId}/balance/charges/`, {
        headers: { ...auth, 'Idempotency-Key': crypto.randomUUID() },
        data: { service, quantity, ...(clientId ? { client_id: clientId } : {}) },
      });
      expect(res.status(), await res.text()).toBe(201);
    };
    // $25.00 → $21.00: 4 labels for North Atlantic Transit, 2 declarations for no workspace.
    await charge('SHIPPING_LABEL', 4, workspaces.get(northAtlantic));
    await charge('CUSTOMS_DECLARATION', 2);

    await page.reload();
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const item = page
      .getByRole('list', { name: 'Notifications' })
      .getByRole('listitem')
      .filter({ hasText: 'below your alert threshold of $22.00' });
    await expect(item).toContainText('The balance is $21.00');
    await checkBothWidths(page, testInfo, {
      name: 'bell-billing',
      of: page.getByRole('list', { name: 'Notifications' }),
    });
    await item.getByRole('link', { name: 'Add funds' }).click();
    await expect(page).toHaveURL(new RegExp(`${billing}/fund-packages$`));
    await expect(page.getByTestId('billing-balance')).toHaveText('$21.00');
  });

  await test.step('usage: by service and by workspace, with its chart, and as CSV', async () => {
    await billingNav(page).getByRole('link', { name: 'Usage' }).click();
    const usage = page.getByRole('region', { name: 'Balance usage' });
    const byService = usage.getByRole('table', { name: 'Usage by service' });
    await expect(byService.getByRole('row', { name: /Shipping label/ })).toContainText('$1.00');
    await expect(byService.getByRole('row', { name: /Customs declaration/ })).toContainText(
      '$3.00',
    );
    await expect(byService.getByRole('row', { name: /Total/ })).toContainText('$4.00');
    const chart = usage.getByRole('figure', { name: 'Spent per day: $4.00 in all' });
    await expect(chart.locator('.recharts-bar-rectangle path').first()).toBeVisible();
    await checkBothWidths(page, testInfo, { name: 'billing-usage', of: usage });
    await expectNoSidewaysScrollOnPhone(page);

    await usage.getByRole('radiogroup', { name: 'Group by' }).getByText('Workspace').click();
    const byWorkspace = usage.getByRole('table', { name: 'Usage by workspace' });
    await expect(byWorkspace.getByRole('row', { name: new RegExp(northAtlantic) })).toContainText(
      '$1.00',
    );
    await expect(byWorkspace.getByRole('row', { name: /Total/ })).toContainText('$4.00');

    const downloading = page.waitForEvent('download');
    await usage.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = await fs.readFile(await download.path(), 'utf8');
    expect(csv).toContain(northAtlantic);
  });

  await test.step('an operator’s refund: its credit note under the invoices, with the details', async () => {
    // A payment the sandbox gateway knows (the seeded invoice's is not one): Starter, bought
    // with the saved card.
    const cards = await request.get(`/v1/organizations/${orgId}/payment-methods/`, {
      headers: auth,
    });
    const card = ((await cards.json()) as { default_payment_method: string })
      .default_payment_method;
    const packages = await request.get('/v1/fund-packages/', { headers: auth });
    const starter = (
      (await packages.json()) as { results: { id: string; name: string }[] }
    ).results.find((p) => p.name === 'Starter')!;
    const bought = await request.post(`/v1/organizations/${orgId}/balance/top-ups/`, {
      headers: { ...auth, 'Idempotency-Key': crypto.randomUUID() },
      data: { fund_package_id: starter.id, payment_method_id: card },
    });
    expect(bought.status(), await bought.text()).toBe(201);
    const invoices = await request.get(`/v1/organizations/${orgId}/invoices/`, { headers: auth });
    expect(invoices.ok(), await invoices.text()).toBe(true);
    // Newest first: the Starter payment.
    const first = ((await invoices.json()) as { results: { id: string; number: string }[] })
      .results[0]!;
    const refund = await request.post(`/v1/admin/invoices/${first.id}/refunds/`, {
      headers: { ...auth, 'Idempotency-Key': crypto.randomUUID() },
      data: { amount: 1000, reason: 'Service credit for an outage' },
    });
    expect(refund.status(), await refund.text()).toBe(201);
    const note = (await refund.json()) as { number: string };

    // The bell tells of the credit note (pushed to the open page) and leads to the history.
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const told = page
      .getByRole('list', { name: 'Notifications' })
      .getByRole('listitem')
      .filter({ hasText: `Credit note ${note.number}` });
    await expect(told).toContainText(`${first.number} was refunded: $10.00 back to the card.`);
    await told.getByRole('link', { name: 'See the billing history' }).click();
    await expect(page).toHaveURL(new RegExp(`${billing}/history$`));
    const notes = page.getByRole('region', { name: 'Credit notes' });
    const row = notes.getByRole('row', { name: new RegExp(note.number) });
    await expect(row).toContainText(first.number);
    await expect(row).toContainText('$10.00');
    // The hidden balance history loads when first shown: shown once, so nothing is left busy.
    const view = page.getByRole('tablist', { name: 'History view' });
    await view.getByRole('tab', { name: 'Balance history' }).click();
    await expect(page.getByRole('table', { name: 'Balance history' })).toBeVisible();
    await view.getByRole('tab', { name: 'Invoices' }).click();
    await checkBothWidths(page, testInfo, { name: 'billing-credit-notes', of: notes });
    await expectNoSidewaysScrollOnPhone(page);

    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: `Download PDF of ${note.number}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`credit-note-${note.number}.pdf`);
    const text = await pdfText(await download.path());
    expect(text).toContain(note.number);
    expect(text).toContain('Demo Shipping Co. Ltd');
    expect(text).toContain('DE123456789');
  });

  // The demo organization is shared with other specs running meanwhile: its wallet settings go
  // back to none (the billing details stay, as they change no one's charges).
  await test.step('the wallet settings are put back', async () => {
    for (const [path, data] of [
      [
        `/v1/organizations/${orgId}/balance/auto-top-up/`,
        { enabled: false, threshold: null, fund_package_id: null },
      ],
      [`/v1/organizations/${orgId}/balance/spend-cap/`, { monthly_limit: null }],
      [`/v1/clients/${workspaces.get(northAtlantic)}/spend-cap/`, { monthly_limit: null }],
      [`/v1/organizations/${orgId}/balance/alerts/`, { thresholds: [] }],
    ] as const) {
      const res = await request.put(path, { headers: auth, data });
      expect(res.ok(), await res.text()).toBe(true);
    }
  });
});
