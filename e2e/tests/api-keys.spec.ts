// The organization's API keys (issue 21 items 1 and 8) in the browser, on an organization of this
// spec's own: its OWNER creates a key that may read members, sees it once and copies it; the key
// then reads the organization's members over the API (and the list says when and from where it
// was last used); the OWNER revokes it and the same call is refused. Axe at 1440 and 390 px on
// the empty list, the create dialog, the shown-once dialog and the list; with E2E_SHOTS_DIR set,
// each is photographed at both widths.
import type { APIRequestContext } from '@playwright/test';
import { checkBothWidths } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';
import { ownerScene } from '../support/scenes.ts';
import { expectNoSidewaysScrollOnPhone } from '../support/pages.ts';
import { signIn } from '../support/session.ts';

/** Where the key's call comes from (a documentation address), for the list's "last used". */
const CALLER_IP = '198.51.100.23';

/** GET …/users/ with the key, from CALLER_IP: the HTTP status. */
async function membersStatusWith(request: APIRequestContext, orgId: string, key: string) {
  const res = await request.get(`/v1/organizations/${orgId}/users/`, {
    headers: { Authorization: `Bearer ${key}`, 'X-Forwarded-For': CALLER_IP },
  });
  return res.status();
}

test('an owner creates an API key, sees it once, uses it, then revokes it', async ({
  page,
  context,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const section = page.getByRole('region', { name: 'API keys' });
  let key = '';

  await test.step('the empty list says what a key is for', async () => {
    await signIn(page, scene.user, `/ps/organization-settings/${scene.orgId}/api-keys`);
    await expect(page.getByRole('link', { name: 'API keys', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(section.getByText('No API keys yet')).toBeVisible();
    await checkBothWidths(page, testInfo, { name: 'api-keys-empty', of: section });
  });

  await test.step('the owner creates a key that may read members', async () => {
    await section.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('ERP sync');
    await dialog
      .getByRole('group', { name: 'Organization permissions' })
      .getByRole('checkbox', { name: /^Read members/ })
      .check();
    // The workspace picker, looked at too, then the key is left for all workspaces.
    await dialog.getByRole('radio', { name: /^Only some workspaces/ }).check();
    await expect(
      dialog
        .getByRole('group', { name: /^Choose workspaces/ })
        .getByRole('checkbox', { name: 'Harbour' }),
    ).toBeVisible();
    await checkBothWidths(page, testInfo, { name: 'api-keys-create', of: dialog });
    await dialog.getByRole('radio', { name: /^All workspaces/ }).check();
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await expect(shown).toContainText('it will not be shown again');
    const field = shown.getByRole('textbox', { name: 'API key “ERP sync”' });
    key = await field.inputValue();
    expect(key).toMatch(/^ptl_[\w-]{43,}$/);
    await shown.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await checkBothWidths(page, testInfo, { name: 'api-keys-created', of: shown });
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
  });

  await test.step('the key reads the members; the list says when and from where', async () => {
    expect(await membersStatusWith(request, scene.orgId, key)).toBe(200);
    const row = section.getByRole('row').filter({ hasText: 'ERP sync' });
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText(CALLER_IP, { timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    await expect(row).toContainText(key.slice(0, 8));
    await expect(row).toContainText('Read members');
    await expect(row).toContainText('Just now');
    await expect(row).not.toContainText(key);
    await checkBothWidths(page, testInfo, { name: 'api-keys-list', of: section });
    // On a phone the details stack under the name: the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row.getByText(CALLER_IP).filter({ visible: true })).toHaveCount(1);
    await expectNoSidewaysScrollOnPhone(page);
  });

  await test.step('the owner revokes it: the row goes and the key is refused', async () => {
    await section.getByRole('button', { name: 'Revoke ERP sync' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke “ERP sync”?' });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await expect(
      page.getByText('The key “ERP sync” is revoked: it no longer works.'),
    ).toBeVisible();
    await expect(section.getByText('No API keys yet')).toBeVisible();
    expect(await membersStatusWith(request, scene.orgId, key)).toBe(401);
  });
});
