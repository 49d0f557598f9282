// The local OpenID Connect provider standing in for Google (apps/api/test/support/oidc-provider-cli.ts),
// started by playwright.config.ts; the app is configured with it as GOOGLE_ISSUER.
export const GOOGLE_CLIENT_ID = 'portolan-e2e';
export const GOOGLE_CLIENT_SECRET = 'portolan-e2e-secret';

/** Every sign-in at the provider is for this one account (verified e-mail). */
export const GOOGLE_ACCOUNT = {
  sub: 'e2e-google-user',
  email: 'google.user@example.test',
  given_name: 'Grace',
  family_name: 'Hopper',
} as const;
