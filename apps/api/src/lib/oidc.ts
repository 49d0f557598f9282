import * as client from 'openid-client';

/**
 * The OpenID Connect relying party behind "Sign in with Google": authorization code flow with
 * state, nonce and PKCE (S256), on `openid-client`. The issuer is configurable (GOOGLE_ISSUER),
 * so tests and the browser suite run the same code against a local `oidc-provider`.
 */
export interface OidcClient {
  /** A fresh authorization request: the URL to send the browser to and the secrets to keep. */
  createAuthorizationRequest(redirectUri: string): Promise<OidcAuthorizationRequest>;
  /** Exchanges the code (with the kept verifier and nonce) and returns the validated identity. */
  exchangeCode(input: OidcCodeExchange): Promise<OidcIdentity>;
}

export interface OidcAuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcCodeExchange {
  code: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

/** The claims we use from the ID token. */
export interface OidcIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
  /** Seconds for each request to the provider. */
  timeoutSeconds?: number;
}

export const OIDC_SCOPE = 'openid email profile';

/**
 * Why a sign-in with the provider failed: `rejected` when the provider or the ID token checks
 * refused it (a bad, used or foreign code, a nonce mismatch, ...), which the caller can cause;
 * `unavailable` when the provider could not be reached or answered with a server error.
 */
export class OidcError extends Error {
  readonly kind: 'rejected' | 'unavailable';
  constructor(kind: 'rejected' | 'unavailable', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

export function createOidcClient(options: OidcClientOptions): OidcClient {
  const issuer = new URL(options.issuer);
  let discovered: Promise<client.Configuration> | null = null;

  /** Discovery once per client; a failed one is forgotten so the next request tries again. */
  const configuration = () => {
    discovered ??= client
      .discovery(
        issuer,
        options.clientId,
        undefined,
        options.clientSecret ? client.ClientSecretPost(options.clientSecret) : client.None(),
        {
          timeout: options.timeoutSeconds ?? 10,
          // Only a local double is served over http (tests, browser suite); Google is https.
          ...(issuer.protocol === 'http:' && { execute: [client.allowInsecureRequests] }),
        },
      )
      .catch((err: unknown) => {
        discovered = null;
        throw toOidcError(err, 'discovery');
      });
    return discovered;
  };

  return {
    async createAuthorizationRequest(redirectUri) {
      const config = await configuration();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: OIDC_SCOPE,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, state, nonce, codeVerifier };
    },

    async exchangeCode(input) {
      const config = await configuration();
      // The browser hands us only code and state; rebuild the authorization response it got.
      // The `iss` parameter (RFC 9207) is ours to add: there is exactly one issuer.
      const callback = new URL(input.redirectUri);
      callback.search = '';
      callback.searchParams.set('code', input.code);
      callback.searchParams.set('state', input.state);
      callback.searchParams.set('iss', config.serverMetadata().issuer);
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callback, {
          expectedState: input.state,
          expectedNonce: input.nonce,
          pkceCodeVerifier: input.codeVerifier,
          idTokenExpected: true,
        });
      } catch (err) {
        throw toOidcError(err, 'token');
      }
      const claims = tokens.claims();
      if (!claims) throw new OidcError('rejected', 'The provider returned no ID token.');
      return {
        subject: claims.sub,
        email: typeof claims.email === 'string' && claims.email.trim() ? claims.email.trim() : null,
        // Some providers send the flag as a string.
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        givenName: typeof claims.given_name === 'string' ? claims.given_name.trim() : '',
        familyName: typeof claims.family_name === 'string' ? claims.family_name.trim() : '',
      };
    },
  };
}

function toOidcError(err: unknown, step: 'discovery' | 'token'): OidcError {
  if (err instanceof OidcError) return err;
  if (err instanceof client.ResponseBodyError) {
    // An OAuth error answer from the provider: invalid_grant, invalid_client, ...
    const detail = err.error_description ? `${err.error} (${err.error_description})` : err.error;
    if (err.status >= 500) {
      return new OidcError('unavailable', `The provider failed: ${detail}.`, { cause: err });
    }
    return new OidcError('rejected', `The provider refused the sign-in: ${detail}.`, {
      cause: err,
    });
  }
  const code = (err as { code?: unknown }).code;
  const cause = (err as { cause?: unknown }).cause;
  const unreachable =
    err instanceof TypeError || // fetch failed: refused, reset, DNS
    code === 'OAUTH_TIMEOUT' ||
    code === 'OAUTH_ABORT' ||
    (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && cause instanceof Response && cause.status >= 500);
  if (unreachable || step === 'discovery') {
    return new OidcError('unavailable', 'The sign-in provider cannot be reached.', { cause: err });
  }
  const message = err instanceof Error ? err.message : 'unknown error';
  return new OidcError('rejected', `The provider's answer failed validation: ${message}.`, {
    cause: err,
  });
}
