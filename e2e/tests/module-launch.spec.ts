// A module configured in MODULE_URLS (issue 21 items 4 and 7): its home in the portal opens the
// module's own app (examples/module-app, the SDK's example) with a launch token by form POST; the
// app verifies the token against the portal's JWKS and shows who was launched in, then notifies
// them through the API with an organization key. A server of this spec (MODULE_URLS set: the run's
// server keeps today's module pages for the other specs) and the example app on free ports.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from '../../scripts/lib/paths.ts';
import { startConfiguredServer, type ConfiguredServer } from '../support/configured-server.ts';
import { DEMO_OWNER, DEMO_WORKSPACES } from '../support/demo.ts';
import { expect } from '../support/fixtures.ts';
import { signIn, test } from '../support/session.ts';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The example module app, until it answers. */
async function startExample(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'examples/module-app/server.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on(
      'data',
      (chunk: Buffer) => chunk.toString().includes('module app on') && resolve(),
    );
    child.once('exit', (code) => reject(new Error(`the example app exited (${code})`)));
  });
  return child;
}

test.describe('a module with its own app', () => {
  let server: ConfiguredServer;
  let example: ChildProcess | undefined;
  let examplePort: number;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    examplePort = await freePort();
    server = await startConfiguredServer({
      MODULE_URLS: `TR=http://127.0.0.1:${examplePort}/launch`,
    });
  });
  test.afterAll(async () => {
    example?.kill('SIGTERM');
    await server?.stop();
  });

  test('opens the example app, which shows the user it verified through the JWKS', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: server.baseURL });
    const page = await context.newPage();
    // An organization key for the example's calls, made by the demo owner.
    const login = await page.request.post('/v1/rest-auth/app/login/', { data: DEMO_OWNER });
    const token = ((await login.json()) as { token: string }).token;
    const auth = { Authorization: `Bearer ${token}` };
    const orgs = (await (
      await page.request.get('/v1/me/organizations/and/clients/', { headers: auth })
    ).json()) as {
      results: { organization: { id: string }; clients: { id: string; name: string }[] }[];
    };
    const org = orgs.results.find((o) => o.clients.some((c) => c.name === DEMO_WORKSPACES[0]))!;
    const workspace = org.clients.find((c) => c.name === DEMO_WORKSPACES[0])!;
    const created = await page.request.post(`/v1/organizations/${org.organization.id}/api-keys/`, {
      headers: auth,
      data: {
        name: 'TR module',
        permissions: ['organization.members.read', 'organization.notifications.send'],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    example = await startExample({
      PORT: String(examplePort),
      PORTOLAN_URL: server.baseURL,
      MODULE: 'TR',
      PORTOLAN_API_KEY: ((await created.json()) as { key: string }).key,
    });

    // As a user does: the workspace, then its module from the channel menu.
    await signIn(page, DEMO_OWNER, `/ps/${workspace.id}/dashboard`);
    await page.getByRole('button', { name: 'Module: No module' }).click();
    await page.getByRole('menuitem', { name: '2D Transit' }).click();
    await expect(page).toHaveURL(`http://127.0.0.1:${examplePort}/`);
    await expect(page.getByRole('heading', { level: 1, name: 'TR module' })).toBeVisible();
    await expect(page.getByRole('status')).toContainText('Verified with Portolan’s published keys');
    await expect(page.getByText(DEMO_OWNER.email)).toBeVisible();
    await expect(page.locator('dl')).toContainText('OWNER');
    await expect(page.locator('dl')).toContainText(workspace.id);
    await expect(page.locator('li code').first()).toBeVisible(); // the module's permissions

    await page.getByRole('button', { name: 'Notify me in Portolan' }).click();
    await expect(page.getByRole('alert')).toHaveText('Sent: look at the bell in Portolan.');
    const bell = (await (
      await page.request.get(`${server.baseURL}/v1/user/notification/`, { headers: auth })
    ).json()) as {
      results: { type: string; extra_message: string; meta: { api_key: { name: string } } }[];
    };
    expect(bell.results[0]).toMatchObject({
      type: 'MODULE',
      extra_message: 'Your TR task is done.',
      meta: { api_key: { name: 'TR module' } },
    });

    // A token that was not signed by the portal is refused.
    const forged = await page.request.post(`http://127.0.0.1:${examplePort}/launch`, {
      form: { token: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln' },
    });
    expect(forged.status()).toBe(401);
    await context.close();
  });
});
