// Analytics (spec §1, issue 11): off or unconfigured, nothing leaves the browser; on and
// configured, page views and the named events reach the configured sink, without personal data.
// The run's server has no analytics configured (the "off" case). The "on" case runs a server of
// its own (support/configured-server.ts) with ANALYTICS_ID and ANALYTICS_URL pointing at a local
// sink double (support/analytics-sink.ts) in this process.
import type { Page } from '@playwright/test';
import { startAnalyticsSink, type AnalyticsSink } from '../support/analytics-sink.ts';
import { startConfiguredServer, type ConfiguredServer } from '../support/configured-server.ts';
import { DEMO_OWNER } from '../support/demo.ts';
import { expect, expectNoSeriousA11yViolations } from '../support/fixtures.ts';
import { fillSignIn } from '../support/pages.ts';
import { signIn, test } from '../support/session.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Every request the page makes to an origin not in `allowed` (data: and blob: never leave). */
function foreignRequests(page: Page, allowed: string[]): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (/^(data|blob):/.test(url)) return;
    if (!allowed.includes(new URL(url).origin)) foreign.push(`${request.method()} ${url}`);
  });
  return foreign;
}

const connectSrc = (csp: string | undefined) => /connect-src ([^;]*)/.exec(csp ?? '')?.[1];

test.describe('analytics off (the run’s server has no analytics id or URL)', () => {
  test('no request leaves for another origin on the login, dashboard and settings pages', async ({
    page,
    account,
    baseURL,
  }, testInfo) => {
    const origin = new URL(baseURL!).origin;
    const foreign = foreignRequests(page, [origin]);

    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await signIn(page, account);
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My Settings' })).toBeVisible();
    // And a settings page loaded afresh (the config and the user read again).
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'My Settings' })).toBeVisible();
    // A beacon would leave at once; give anything late a moment (the bell's event stream stays
    // open, so the network never goes idle).
    await page.waitForTimeout(1_000);
    expect(foreign).toEqual([]);

    const config = (await (await page.request.get('/v1/config')).json()) as { analytics: unknown };
    expect(config.analytics).toBeNull();
    const login = await page.request.get('/login');
    expect(connectSrc(login.headers()['content-security-policy'])).toBe("'self'");
    await expectNoSeriousA11yViolations(page, testInfo);
  });
});

test.describe('analytics on (a server of this spec, with a sink double)', () => {
  test.describe.configure({ mode: 'serial' });
  let sink: AnalyticsSink;
  let server: ConfiguredServer;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    sink = await startAnalyticsSink();
    server = await startConfiguredServer({
      FEATURE_ANALYTICS: 'true',
      ANALYTICS_ID: 'PORTOLAN-E2E',
      ANALYTICS_URL: sink.url,
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await sink?.close();
  });

  test('page views and the sign-in event reach the sink, masked and without personal data', async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ baseURL: server.baseURL });
    const page = await context.newPage();
    const foreign = foreignRequests(page, [new URL(server.baseURL).origin, sink.origin]);
    const seen = () => sink.records().map((r) => `${r.type} ${r.name} ${r.path}`);
    try {
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
      await expect.poll(seen).toContain('pageview Login /login');

      await fillSignIn(page, DEMO_OWNER.email, DEMO_OWNER.password);
      await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
      await expect
        .poll(() => sink.records().find((r) => r.type === 'event' && r.name === 'sign-in'))
        .toMatchObject({ id: 'PORTOLAN-E2E', props: { method: 'password' } });
      await expect.poll(seen).toContain('pageview ps-dashboard /ps/dashboard');

      // A route change inside the app is a page view too.
      await page.getByRole('button', { name: /^Account menu/ }).click();
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'My Settings' })).toBeVisible();
      await expect.poll(seen).toContain('pageview ps-profile /ps/profile');
      await expectNoSeriousA11yViolations(page, testInfo);

      // A workspace's id in the path is masked.
      const login = await context.request.post('/v1/rest-auth/app/login/', {
        data: { email: DEMO_OWNER.email, password: DEMO_OWNER.password },
      });
      const token = ((await login.json()) as { token: string }).token;
      const mine = await context.request.get('/v1/me/organizations/and/clients/', {
        headers: { Authorization: `Bearer ${token}` },
      });
      const entries = ((await mine.json()) as { results: { clients: { id: string }[] }[] }).results;
      const workspaceId = entries.flatMap((e) => e.clients)[0]!.id;
      await page.goto(`/ps/${workspaceId}/dashboard`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect.poll(seen).toContain('pageview ps-dashboard /ps/:id/dashboard');

      for (const hit of sink.hits) {
        expect(hit.path).toBe('/collect');
        expect(hit.contentType).toMatch(/^text\/plain/);
        expect(hit.cookie).toBeUndefined();
        expect(hit.body).not.toContain(DEMO_OWNER.email);
        expect(hit.body).not.toMatch(UUID);
        expect(hit.body).not.toContain('?');
      }
      expect(foreign).toEqual([]);
      // The CSP lets the browser reach the sink's origin, and only it.
      const page0 = await context.request.get('/login');
      expect(connectSrc(page0.headers()['content-security-policy'])).toBe(`'self' ${sink.origin}`);
    } catch (error) {
      await testInfo.attach('configured-server.log', { body: server.output() });
      throw error;
    } finally {
      await context.close();
    }
  });
});
