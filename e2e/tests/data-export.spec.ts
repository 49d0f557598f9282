// A personal data export in the browser: an owner asks for their data on My Settings, the page
// follows the export until it is Ready (the server's job builds it in the background), the
// archive is downloaded and opened (profile.json holds their e-mail, memberships.json their
// organization), and the e-mailed link downloads the same archive without signing in. The
// section passes axe before and after.
import fs from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { ownerScene } from '../support/scenes.ts';
import { signIn } from '../support/session.ts';

test('a user exports their own data from My Settings and opens the archive', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  await signIn(page, scene.user);
  await page.goto('/ps/profile');

  // The page and its "Your data" section; the footer's support link is another part of issue 11,
  // checked by its own test.
  const axe = { exclude: ['footer'] };
  const section = page.getByRole('region', { name: 'Your data' });
  await expect(section.getByText('No exports yet')).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo, axe);

  const asked = new Date();
  await section.getByRole('button', { name: 'Export my data' }).click();
  await expect(section.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(section.getByRole('status')).toContainText('Download it until');
  await expectNoSeriousA11yViolations(page, testInfo, axe);

  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: /^Download the export of/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^portolan-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(await fs.readFile(await download.path())));
  expect(Object.keys(files)).toEqual(
    expect.arrayContaining(['README.txt', 'profile.json', 'memberships.json', 'activities.jsonl']),
  );
  const profile = JSON.parse(strFromU8(files['profile.json']!)) as { user: { email: string } };
  expect(profile.user.email).toBe(scene.user.email);
  const memberships = JSON.parse(strFromU8(files['memberships.json']!)) as {
    organizations: { organization: { id: string; name: string }; role: string }[];
  };
  expect(memberships.organizations).toEqual([
    expect.objectContaining({ organization: { id: scene.orgId, name: 'Acme e2e' }, role: 'OWNER' }),
  ]);

  // The e-mail's link downloads the same archive, with no session.
  const mail = await mailbox.waitFor(scene.user.email, {
    subject: /data export is ready/,
    since: asked,
  });
  const link = /\/v1\/data-exports\/download\/[\w-]{43}\//.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  const res = await request.get(link!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/zip');
  const mailed = unzipSync(new Uint8Array(await res.body()));
  expect(JSON.parse(strFromU8(mailed['profile.json']!))).toMatchObject({
    user: { email: scene.user.email },
  });
});
