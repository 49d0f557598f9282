import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A local OpenID Connect provider (`oidc-provider`) standing in for Google: the test double of
 * the outside sign-in service, used by the API tests and by the browser suite (through
 * oidc-provider-cli.ts). Plain http on loopback; one confidential client with PKCE required.
 *
 * Sign-in at the provider: /auth sends the browser to /interaction/<uid>, a page titled
 * "Test sign-in provider" that shows the configured account and two buttons, "Continue"
 * (signs in as that account and consents to every requested scope in one step) and "Cancel"
 * (answers access_denied). The browser then lands on the redirect URI with `code` and `state`.
 */
export interface TestOidcAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

export interface TestOidcProviderOptions {
  /** 0 or unset: a random free port. */
  port?: number;
  host?: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  account: TestOidcAccount;
}

export interface TestOidcProvider {
  /** e.g. http://127.0.0.1:41234 (no trailing slash): GOOGLE_ISSUER for the app. */
  issuer: string;
  /** The account the next sign-in at the provider is for. */
  setAccount(account: TestOidcAccount): void;
  close(): Promise<void>;
}

export async function startTestOidcProvider(
  options: TestOidcProviderOptions,
): Promise<TestOidcProvider> {
  const host = options.host ?? '127.0.0.1';
  let account = { ...options.account };

  // Bind first: the issuer must carry the real port.
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;

  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig' };

  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingKey as never] },
    cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // Like Google: the scope claims ride in the ID token, not only behind userinfo.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: account.email,
            email_verified: account.email_verified,
            given_name: account.given_name,
            family_name: account.family_name,
            name: `${account.given_name} ${account.family_name}`.trim(),
          };
        },
      };
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page('Sign-in error', `<pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre>`);
    },
  };

  const provider = new Provider(issuer, configuration);
  // Refusals (a used code, a bad verifier) are answers, not server errors; these are bugs.
  provider.on('server_error', (_ctx, err) => console.error('test oidc provider:', err));

  provider.use(async (ctx, next) => {
    const match = /^\/interaction\/([\w-]+)(\/(login|abort))?$/.exec(ctx.path);
    if (!match) return next();
    const action = match[3];
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (!action && ctx.method === 'GET') {
      ctx.type = 'html';
      ctx.set('cache-control', 'no-store');
      ctx.body = page(
        'Test sign-in provider',
        `<h1>Test sign-in provider</h1>
<p>Sign in to <strong>${escapeHtml(String(details.params.client_id))}</strong> as</p>
<p data-testid="account-email">${escapeHtml(account.email)}</p>
<p>${escapeHtml(`${account.given_name} ${account.family_name}`)}</p>
<form method="post" action="/interaction/${details.uid}/login">
  <button type="submit">Continue</button>
</form>
<form method="post" action="/interaction/${details.uid}/abort">
  <button type="submit">Cancel</button>
</form>`,
      );
      return undefined;
    }
    if (ctx.method !== 'POST') return next();
    let result;
    if (action === 'login') {
      const grant = new provider.Grant({
        accountId: account.sub,
        clientId: String(details.params.client_id),
      });
      grant.addOIDCScope(String(details.params.scope ?? 'openid'));
      result = {
        login: { accountId: account.sub },
        consent: { grantId: await grant.save() },
      };
    } else {
      result = { error: 'access_denied', error_description: 'The user cancelled the sign-in.' };
    }
    const redirectTo = await provider.interactionResult(ctx.req, ctx.res, result, {
      mergeWithLastSubmission: false,
    });
    ctx.status = 303;
    ctx.redirect(redirectTo);
    return undefined;
  });

  handler = provider.callback();
  return {
    issuer,
    setAccount(next) {
      account = { ...next };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Drives the provider as a browser would (following redirects with a cookie jar) and presses
 * "Continue" on its sign-in page. Returns the final redirect to the app: `redirectUri?code&state`.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  redirectUri: string,
  action: 'login' | 'abort' = 'login',
): Promise<URL> {
  const jar = new Map<string, string>();
  const send = async (url: URL, method: 'GET' | 'POST') => {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(method === 'POST' && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(method === 'POST' && { body: '' }),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    await res.arrayBuffer();
    return res;
  };

  let url = new URL(authorizationUrl);
  let method: 'GET' | 'POST' = 'GET';
  for (let hop = 0; hop < 10; hop++) {
    const res = await send(url, method);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next;
      url = next;
      method = 'GET';
      continue;
    }
    if (res.status === 200 && /^\/interaction\/[\w-]+$/.test(url.pathname)) {
      url = new URL(`${url.pathname}/${action}`, url);
      method = 'POST';
      continue;
    }
    throw new Error(`unexpected answer from the provider: ${res.status} at ${url.href}`);
  }
  throw new Error('too many redirects at the provider');
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;
}

function escapeHtml(s: string) {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
