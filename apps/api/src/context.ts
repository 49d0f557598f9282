import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Clock } from './lib/clock.ts';
import type { CredentialChecker } from './lib/credentials/checker.ts';
import type { MailContext } from './lib/mail/templates.ts';
import type { MailOutbox } from './lib/mail/outbox.ts';
import type { SecretBox } from './lib/secret-box.ts';
import type { PaymentGateway } from './lib/payments/gateway.ts';
import type { ApiKeyResolver } from './modules/api-keys/index.ts';
import type { SessionCache } from './modules/auth/index.ts';
import type { revokePendingInvitations } from './modules/invitations/index.ts';
import type { LastActive } from './modules/users/index.ts';

/** What every module's service needs from the running app; built once in buildApp. */
export interface AppContext {
  config: AppConfig;
  database: Database;
  db: Db;
  clock: Clock;
  /** HS256 key for every token the server signs. */
  jwtKey: Uint8Array;
  /** Seals secrets kept at rest (TOTP secrets) with the configured key. */
  secretBox: SecretBox;
  mail: MailContext;
  outbox: MailOutbox;
  /** The payment gateway configuration chose (PAYMENT_GATEWAY). */
  payments: PaymentGateway;
  /** The marketplace-seller credential checker configuration chose (CREDENTIAL_CHECK_URL). */
  credentials: CredentialChecker;
  /** Live sessions held in memory, dropped on every change announced by the database. */
  sessions: SessionCache;
  /** Which API key a request names (trusted for half a second), its rate limit and last use. */
  apiKeys: ApiKeyResolver;
  /** When each user was last active: written after the request, at most once per 5 minutes. */
  lastActive: LastActive;
  /**
   * The invitations module's revocation of a person's pending invitations, which the members
   * module runs when it removes them. Handed over here, not imported: invitations writes
   * memberships through the members module's face, and modules import each other without cycles.
   */
  revokePendingInvitations: typeof revokePendingInvitations;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/** The app as routes see it: Fastify with the zod type provider (built by buildApp in app.ts). */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
