/**
 * The local OpenID Connect provider as a process, for the browser suite (Playwright webServer):
 *
 *   PORT=4010 CLIENT_ID=portolan-e2e CLIENT_SECRET=... REDIRECT_URI=http://127.0.0.1:3100/google-auth \
 *   ACCOUNT_EMAIL=grace@example.com node apps/api/test/support/oidc-provider-cli.ts
 *
 * Prints `ready <issuer>` once it listens. Readiness URL: <issuer>/.well-known/openid-configuration.
 * Every sign-in is for the one configured account: the browser sees a page "Test sign-in provider"
 * with the account's e-mail and a "Continue" button (and "Cancel", which answers access_denied).
 */
import { startTestOidcProvider } from './oidc-provider.ts';

const env = process.env;
const required = (name: string) => {
  const value = env[name];
  if (!value) {
    console.error(`oidc-provider-cli: ${name} is required`);
    process.exit(2);
  }
  return value;
};

const provider = await startTestOidcProvider({
  port: Number(env.PORT ?? 0),
  host: env.HOST ?? '127.0.0.1',
  clientId: required('CLIENT_ID'),
  clientSecret: required('CLIENT_SECRET'),
  redirectUri: required('REDIRECT_URI'),
  account: {
    sub: env.ACCOUNT_SUB ?? 'e2e-google-user',
    email: env.ACCOUNT_EMAIL ?? 'google.user@example.com',
    email_verified: (env.ACCOUNT_EMAIL_VERIFIED ?? 'true') !== 'false',
    given_name: env.ACCOUNT_GIVEN_NAME ?? 'Grace',
    family_name: env.ACCOUNT_FAMILY_NAME ?? 'Hopper',
  },
});
console.log(`ready ${provider.issuer}`);

const stop = () => {
  void provider.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
