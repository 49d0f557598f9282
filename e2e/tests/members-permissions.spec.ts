// Members and permissions in the browser (issue 8): an owner changes a member's role; builds an
// access rule, a custom role made of it, assigns the role to a member with a preview first, and
// asks why a permission is what it is. Every page passes axe. With E2E_SHOTS_DIR set, each page is
// also photographed.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { authOf, ownerScene, staffMember, type Scene } from '../support/scenes.ts';
import { signIn } from '../support/session.ts';

const SHOTS = process.env.E2E_SHOTS_DIR;

async function check(page: Page, testInfo: TestInfo, name: string) {
  await expectNoSeriousA11yViolations(page, testInfo);
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

test('an owner changes a member’s organization role', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  const member = await staffMember(request, scene);
  await signIn(page, scene.user);

  await page.goto(`/ps/organization-settings/${scene.orgId}/users/internal`);
  await expect(page.getByText(member.email)).toBeVisible();
  await check(page, testInfo, 'org-users');

  await page.goto(`/ps/organization-settings/${scene.orgId}/users/internal/${member.userId}`);
  await page.getByRole('combobox', { name: 'Organization role' }).click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await page.getByRole('button', { name: 'Change role' }).click();
  await expect(page.getByText('Sam Stevedore is now Admin.')).toBeVisible();
  await check(page, testInfo, 'org-member');

  const one = await request.get(`/v1/organizations/${scene.orgId}/users/${member.userId}/`, {
    headers: authOf(scene),
  });
  expect(((await one.json()) as { role: { key: string } }).role.key).toBe('ADMIN');
});

test('an access rule, a custom role made of it, assigned with a preview; the explainer says why', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  // Four pages, each analysed by axe: over the default minute on a loaded 2-core machine (as the
  // other long test of this file).
  test.setTimeout(120_000);
  const scene = await ownerScene(request, mailbox);
  const member = await staffMember(request, scene);
  await signIn(page, scene.user);
  const settings = `/ps/client-settings/${scene.harbour}`;

  // An access rule that lets its holders delete shipment boxes (STAFF may not by default).
  await page.goto(`${settings}/access-rules/create`);
  await page.getByRole('textbox', { name: 'Name' }).fill('Box clean-up');
  await page
    .getByRole('radiogroup', { name: 'Delete shipment boxes' })
    .getByText('Allow', { exact: true })
    .click();
  await check(page, testInfo, 'access-rule-create');
  await page.getByRole('button', { name: 'Create access rule' }).click();
  await expect(page.getByText(/Box clean-up/).first()).toBeVisible();

  // A custom role made of that rule.
  await page.goto(`${settings}/custom-roles/create`);
  await page.getByRole('textbox', { name: 'Name' }).fill('Dock supervisors');
  await page.getByRole('combobox', { name: 'Add a rule' }).click();
  await page.getByRole('option', { name: 'Box clean-up' }).click();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await check(page, testInfo, 'custom-role-create');
  await page.getByRole('button', { name: 'Create custom role' }).click();
  await expect(page.getByText(/Dock supervisors/).first()).toBeVisible();

  // The member's permissions: denied by default; the preview shows the change before applying.
  await page.goto(`${settings}/user-list/${member.userId}/permissions`);
  await expect(page.getByRole('heading', { name: 'Permissions of Sam Stevedore' })).toBeVisible();
  await page.getByRole('button', { name: 'Why? Delete shipment boxes' }).click();
  const why = page.getByRole('dialog', { name: 'Why? Delete shipment boxes' });
  await expect(why.getByText(/Denied by the default role Staff/)).toBeVisible();
  await check(page, testInfo, 'member-permissions-why');
  await page.keyboard.press('Escape');

  await page.getByRole('combobox', { name: 'Add a custom role' }).click();
  await page.getByRole('option', { name: 'Dock supervisors' }).click();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('alert', { name: 'Preview: nothing is saved yet' });
  await expect(preview).toContainText('Delete shipment boxes');
  await check(page, testInfo, 'member-permissions-preview');
  // Nothing saved yet.
  const before = await request.get(
    `/v1/clients/${scene.harbour}/users/${member.userId}/custom-roles/`,
    {
      headers: authOf(scene),
    },
  );
  expect(((await before.json()) as { roles: unknown[] }).roles).toEqual([]);

  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('The custom roles have been applied.')).toBeVisible();
  await page.getByRole('button', { name: 'Why? Delete shipment boxes' }).click();
  await expect(
    page
      .getByRole('dialog', { name: 'Why? Delete shipment boxes' })
      .getByText(/Allowed by the custom role Dock supervisors/),
  ).toBeVisible();
});

/**
 * The other member, invitation, rule and role pages, each loaded and checked with axe: fourteen
 * pages, in two tests of seven (organization, then workspace) so that the two browser workers
 * share them and each test stays well inside its time.
 */
const OTHER_PAGES: {
  part: string;
  pages: (scene: Scene, memberId: string) => [string, RegExp | string][];
}[] = [
  {
    part: 'organization',
    pages: (scene, memberId) => {
      const org = `/ps/organization-settings/${scene.orgId}`;
      return [
        [`${org}/users/external`, 'External users'],
        [`/ps/organizations/${scene.orgId}/invite`, /Invite/],
        [`/ps/organizations/${scene.orgId}/add`, /Add/],
        [`/ps/organizations/${scene.orgId}/users/${memberId}/client-access`, /access/i],
        [`${org}/access-rules`, 'Access rules'],
        [`${org}/custom-roles`, 'Custom roles'],
        [`${org}/access-rules/create`, /access rule/i],
      ];
    },
  },
  {
    part: 'workspace',
    pages: (scene, memberId) => {
      const ws = `/ps/client-settings/${scene.harbour}`;
      return [
        [
          `/ps/organizations/${scene.orgId}/users/${memberId}/client-access/${scene.harbour}/permissions/`,
          'Permissions of Sam Stevedore',
        ],
        [`${ws}/user-list`, 'Users'],
        [`${ws}/user-list/${memberId}`, 'Role'],
        [`/ps/users/${scene.harbour}/invite`, /Invite/],
        [`/ps/users/${scene.harbour}/add`, /Add/],
        [`${ws}/access-rules`, 'Access rules'],
        [`${ws}/custom-roles`, 'Custom roles'],
      ];
    },
  },
];

for (const { part, pages } of OTHER_PAGES) {
  test(`the other ${part} member, invitation, rule and role pages have no serious or critical violations`, async ({
    page,
    request,
    mailbox,
  }, testInfo) => {
    test.setTimeout(120_000);
    const scene = await ownerScene(request, mailbox);
    const member = await staffMember(request, scene);
    await signIn(page, scene.user);
    for (const [url, heading] of pages(scene, member.userId)) {
      await page.goto(url);
      await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
      // Loaded: no skeleton or busy list left (the bell's stream keeps the network busy for good).
      await expect(page.locator('[aria-busy="true"], .mantine-Skeleton-root')).toHaveCount(0);
      await check(page, testInfo, url.replace(/[^a-z]+/gi, '-'));
    }
  });
}
