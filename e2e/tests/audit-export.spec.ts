// The audit export in the browser: an owner opens the Activities page of an organization with
// some history, exports it as CSV and as JSON Lines through the Export dialog, and the files
// downloaded hold exactly the organization's activities (header, rows, newest first). The dialog
// passes axe.
import fs from 'node:fs/promises';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { authOf, ownerScene } from '../support/scenes.ts';
import { signIn } from '../support/session.ts';

test('an owner exports the activities as CSV and JSON Lines', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  // Some history: a change of the organization's name, recorded as UPDATE_ORGANIZATION.
  const renamed = await request.put(`/v1/organizations/${scene.orgId}/`, {
    headers: authOf(scene),
    data: { name: 'Acme Export' },
  });
  expect(renamed.ok(), await renamed.text()).toBe(true);
  const log = await request.get(`/v1/organizations/${scene.orgId}/activities/?limit=100`, {
    headers: authOf(scene),
  });
  const expected = ((await log.json()) as { results: { id: string }[] }).results.map((a) => a.id);
  expect(expected.length).toBeGreaterThan(1);

  await signIn(page, scene.user);
  await page.goto(`/ps/organization-settings/${scene.orgId}/activities`);
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export activities' });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);

  const csvDownload = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe('activities-acme-export-start-now.csv');
  const lines = (await fs.readFile(await csv.path(), 'utf8')).trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'id,created,action,user_email,user_name,object_type,object_id,workspace,module,data',
  );
  expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected);
  await expect(page.getByText(`Exported ${expected.length} activities`)).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Export' }).click();
  await dialog.getByRole('radio', { name: 'JSON Lines' }).check();
  const jsonlDownload = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  const jsonl = await jsonlDownload;
  expect(jsonl.suggestedFilename()).toBe('activities-acme-export-start-now.jsonl');
  const rows = (await fs.readFile(await jsonl.path(), 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; action: string; user_email: string });
  expect(rows.map((r) => r.id)).toEqual(expected);
  expect(rows[0]).toMatchObject({ action: 'UPDATE_ORGANIZATION', user_email: scene.user.email });
});
