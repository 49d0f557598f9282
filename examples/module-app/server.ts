// A module's own app, as a module team would write one against Portolan (docs/modules.md):
//
//   POST /launch   the portal's form POST of a launch token: verified offline against the portal's
//                  JWKS (signature, issuer, audience portolan-module:<MODULE>, expiry), then a
//                  session of this app (a cookie) and a redirect to /
//   GET  /         who was launched in: the user, the workspace, the role and the module's
//                  permissions; with an API key, the member's name and e-mail from the API
//   POST /charge   one SHIPPING_LABEL charged to the organization's wallet (SDK, API key)
//   POST /notify   a notification to the launched user's bell (SDK, API key)
//
// PORT (4100), PORTOLAN_URL (the portal's public URL, http://localhost:3000), MODULE (TR), and
// PORTOLAN_API_KEY (an organization key with organization.members.read, organization.balance.charge
// and organization.notifications.send; without it the app only shows the launch).
import crypto from 'node:crypto';
import http from 'node:http';
import { createPortolanClient, launchVerifier, type ModuleLaunchClaims } from '@portolan/sdk';

const PORT = Number(process.env.PORT ?? 4100);
const PORTOLAN_URL = (process.env.PORTOLAN_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const MODULE = process.env.MODULE ?? 'TR';
const API_KEY = process.env.PORTOLAN_API_KEY;

const verify = launchVerifier({ portalUrl: PORTOLAN_URL, module: MODULE });
const portolan = API_KEY ? createPortolanClient({ baseUrl: PORTOLAN_URL, apiKey: API_KEY }) : null;

interface Session {
  claims: ModuleLaunchClaims;
  flash: string | null;
}
/** This app's own sessions, by cookie; a real module would keep them in its own store. */
const sessions = new Map<string, Session>();

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
dt{font-weight:600}button{font:inherit;padding:.4rem .9rem;margin-right:.5rem}</style></head>
<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 64 * 1024) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

function sessionOf(req: http.IncomingMessage): [string, Session] | null {
  const id = /(?:^|;\s*)module_session=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];
  const session = id ? sessions.get(id) : undefined;
  return id && session ? [id, session] : null;
}

const redirect = (res: http.ServerResponse, to: string, cookie?: string): void =>
  void res.writeHead(303, { location: to, ...(cookie && { 'set-cookie': cookie }) }).end();

async function home(session: Session): Promise<string> {
  const { claims } = session;
  let who = `<dd>User ${escape(claims.sub)}</dd>`;
  if (portolan) {
    const { data } = await portolan.GET('/v1/organizations/{orgId}/users/{userId}/', {
      params: { path: { orgId: claims.org, userId: claims.sub } },
    });
    if (data)
      who = `<dd>${escape(`${data.user.first_name} ${data.user.last_name}`.trim())} &lt;${escape(data.user.email)}&gt;</dd>`;
  }
  const permissions = claims.permissions.length
    ? `<ul>${claims.permissions.map((p) => `<li><code>${escape(p)}</code></li>`).join('')}</ul>`
    : '<p>None in this module.</p>';
  const actions = portolan
    ? `<form method="post" action="/charge" style="display:inline"><button>Charge one shipping label</button></form>
<form method="post" action="/notify" style="display:inline"><button>Notify me in Portolan</button></form>`
    : '<p>Set PORTOLAN_API_KEY to charge the wallet and notify through the API.</p>';
  return page(
    `${MODULE} module`,
    `
<p role="status">Verified with Portolan’s published keys (${escape(PORTOLAN_URL)}/.well-known/jwks.json).</p>
<dl><dt>Signed in as</dt>${who}<dt>Role in the workspace</dt><dd>${escape(claims.role)}</dd>
<dt>Workspace</dt><dd><code>${escape(claims.client)}</code></dd>
<dt>Organization</dt><dd><code>${escape(claims.org)}</code></dd></dl>
<h2>Permissions</h2>${permissions}
${session.flash ? `<p role="alert">${escape(session.flash)}</p>` : ''}${actions}`,
  );
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const html = (status: number, body: string): void =>
    void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  const url = new URL(req.url ?? '/', 'http://module.local');
  if (req.method === 'POST' && url.pathname === '/launch') {
    const token = (await readForm(req)).get('token') ?? '';
    let claims: ModuleLaunchClaims;
    try {
      claims = await verify(token);
    } catch (error) {
      return html(
        401,
        page(
          'Launch refused',
          `<p>The launch token did not verify: ${escape((error as Error).message)}. Open the module again from Portolan.</p>`,
        ),
      );
    }
    const id = crypto.randomBytes(24).toString('base64url');
    sessions.set(id, { claims, flash: null });
    return redirect(res, '/', `module_session=${id}; HttpOnly; SameSite=Lax; Path=/`);
  }
  const found = sessionOf(req);
  if (!found) return html(401, page(`${MODULE} module`, '<p>Open this module from Portolan.</p>'));
  const [, session] = found;
  const { claims } = session;
  if (req.method === 'POST' && url.pathname === '/charge' && portolan) {
    const { data, error } = await portolan.POST('/v1/organizations/{orgId}/balance/charges/', {
      params: { path: { orgId: claims.org }, header: { 'idempotency-key': crypto.randomUUID() } },
      body: { service: 'SHIPPING_LABEL', quantity: 1, reference: `${MODULE} module` },
    });
    session.flash = data
      ? `Charged ${data.amount} (balance now ${data.available_balance}).`
      : `The charge was refused: ${(error as { message?: string })?.message ?? 'unknown error'}`;
    return redirect(res, '/');
  }
  if (req.method === 'POST' && url.pathname === '/notify' && portolan) {
    const { error } = await portolan.POST('/v1/organizations/{orgId}/notifications/', {
      params: { path: { orgId: claims.org } },
      body: {
        user_ids: [claims.sub],
        message: `Your ${MODULE} task is done.`,
        module: MODULE as 'TR',
        client_id: claims.client,
      },
    });
    session.flash = error
      ? `Not sent: ${(error as { message?: string }).message}`
      : 'Sent: look at the bell in Portolan.';
    return redirect(res, '/');
  }
  if (req.method === 'GET' && url.pathname === '/') {
    const body = await home(session);
    session.flash = null;
    return html(200, body);
  }
  return html(404, page('Not found', '<p>Nothing here.</p>'));
}

http
  .createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent)
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Something went wrong.');
    });
  })
  .listen(PORT, '127.0.0.1', () => console.log(`${MODULE} module app on http://127.0.0.1:${PORT}`));
