import crypto from 'node:crypto';
import path from 'node:path';
import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppConfig } from './config.ts';
import type { App, AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createCredentialChecker, type CredentialChecker } from './lib/credentials/index.ts';
import { startJobs } from './lib/jobs.ts';
import { MailOutbox } from './lib/mail/outbox.ts';
import { s3ClientFor } from './lib/s3/client.ts';
import {
  createFileTransport,
  createSmtpTransport,
  type MailTransport,
} from './lib/mail/transport.ts';
import { createGateway, type PaymentGateway } from './lib/payments/index.ts';
import { SecretBox } from './lib/secret-box.ts';
import { resolveEncryptionKey, resolveJwtSecret } from './lib/secrets.ts';
import { registerCompression } from './plugins/compression.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerHttpsRedirect } from './plugins/https-redirect.ts';
import { protocolErrorOptions, registerProtocolErrors } from './plugins/protocol-errors.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerSpa } from './plugins/static-spa.ts';
import { registerAccess } from './modules/access/index.ts';
import { activitiesModule } from './modules/activities/index.ts';
import { ApiKeyResolver, apiKeysModule } from './modules/api-keys/index.ts';
import { authModule, liveSessionOf, SessionCache, stepUpMethodsOf } from './modules/auth/index.ts';
import { mfaModule } from './modules/mfa/index.ts';
import { securityLogModule } from './modules/security-log/index.ts';
import { autoTopUpJob, billingModule, renewalJob } from './modules/billing/index.ts';
import { clientsModule } from './modules/clients/index.ts';
import { dataExportJob, dataExportsModule } from './modules/data-exports/index.ts';
import { eventsModule } from './modules/events/index.ts';
import { notificationsModule } from './modules/notifications/index.ts';
import { membersModule } from './modules/members/index.ts';
import { ensureSigningKey, moduleLaunchModule } from './modules/module-launch/index.ts';
import { invitationsModule, revokePendingInvitations } from './modules/invitations/index.ts';
import { organizationsModule } from './modules/organizations/index.ts';
import { permissionsModule } from './modules/permissions/index.ts';
import { isPlatformAdmin, releaseNotesModule } from './modules/release-notes/index.ts';
import { shareLinksModule } from './modules/share-links/index.ts';
import { pruneJob, systemModule } from './modules/system/index.ts';
import { uploadsModule } from './modules/uploads/index.ts';
import { webhookJob, webhooksModule } from './modules/webhooks/index.ts';
import { LastActive, usersModule } from './modules/users/index.ts';
import {
  pathOf,
  REQUEST_LINE_FIELDS,
  RequestLogController,
  serializeError,
} from './plugins/request-log.ts';

export interface AppDeps {
  /** An open, migrated database (server.ts opens it under the DATA_DIR lock; tests bring their own). */
  database: Database;
  clock?: Clock;
  mailTransport?: MailTransport;
  /** Where log lines go (stdout unless given); tests capture them here. */
  logStream?: { write(line: string): void };
  /** Start the jobs, the mail outbox's among them (off in tests, which drain it by hand). */
  startWorkers?: boolean;
  /** A gateway of the test's own instead of the one configuration chooses. */
  paymentGateway?: PaymentGateway;
  /** A credential checker of the test's own instead of the one configuration chooses. */
  credentialChecker?: CredentialChecker;
}

/** Readable logs for a person at a terminal (when pino-pretty is installed); JSON otherwise. */
function prettyTransport() {
  if (!process.stdout.isTTY) return {};
  try {
    import.meta.resolve('pino-pretty');
  } catch {
    return {};
  }
  return {
    transport: {
      target: 'pino-pretty',
      options: {
        translateTime: 'SYS:HH:MM:ss',
        ignore: ['pid', 'hostname', 'reqId', ...REQUEST_LINE_FIELDS].join(','),
      },
    },
  };
}

/** Every module of the API, each registered through its face (modules/<name>/index.ts). */
const MODULES = [
  systemModule,
  authModule,
  mfaModule,
  securityLogModule,
  usersModule,
  uploadsModule,
  organizationsModule,
  clientsModule,
  activitiesModule,
  membersModule,
  invitationsModule,
  notificationsModule,
  permissionsModule,
  billingModule,
  releaseNotesModule,
  shareLinksModule,
  dataExportsModule,
  apiKeysModule,
  eventsModule,
  moduleLaunchModule,
  webhooksModule,
];

/** JSON bodies above this answer 413. Uploads have their own limit. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** A socket with no traffic either way for this long while its request is handled is destroyed. */
const SOCKET_INACTIVITY_TIMEOUT_MS = 120_000;

/**
 * Timeouts of the HTTP server (docs/decisions/0006-database-outages-and-timeouts.md). Fastify
 * turns Node's request timeout off unless given one, so a client announcing a body and never
 * sending it would hold its connection for ever.
 */
function httpServerOptions(http: AppConfig['http']) {
  return {
    // The whole request, headers and body, must arrive within this: then Node answers 408 and
    // closes the connection. It checks every connectionsCheckingInterval (30 s by default, which
    // would let a 30 s timeout run to a minute).
    requestTimeout: http.requestTimeoutMs,
    http: {
      headersTimeout: http.requestTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, http.requestTimeoutMs / 4)),
    },
    // Idle keep-alive connections (between requests) close after this: above the 60 s idle
    // timeout of common proxies and load balancers, so they never reuse a connection we close.
    keepAliveTimeout: http.keepAliveTimeoutMs,
    // No traffic either way for this long while a request is being handled (a client that stops
    // reading its answer): the socket is destroyed. Well above any handler's time.
    connectionTimeout: SOCKET_INACTIVITY_TIMEOUT_MS,
  };
}

export async function buildApp(config: AppConfig, deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : prettyTransport()),
      // Query strings can carry one-time tokens (/reset-password?token=…): never log them.
      serializers: {
        err: serializeError,
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: pathOf(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
    logController: new RequestLogController(),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    ajv: undefined,
    // Spec §7 writes some paths without the trailing slash the others have: every path answers in
    // both forms (routes are registered, and listed in the OpenAPI document, with the slash).
    routerOptions: { ignoreTrailingSlash: true },
    ...protocolErrorOptions,
    ...httpServerOptions(config.http),
  }).withTypeProvider<ZodTypeProvider>();
  // Beyond this many open connections Node closes new ones as soon as they are accepted.
  app.server.maxConnections = config.http.maxConnections;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: a text/plain body sent to a JSON route answers 415 instead of being parsed.
  app.removeContentTypeParser('text/plain');

  const clock = deps.clock ?? systemClock;
  const jwtSecret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  const transport =
    deps.mailTransport ??
    (config.smtpUrl
      ? createSmtpTransport(config.smtpUrl, config.mailFrom)
      : createFileTransport(path.join(config.dataDir, 'mail'), config.mailFrom, app.log));
  const outbox = new MailOutbox(deps.database, transport, clock, app.log);

  const jwtKey = new TextEncoder().encode(jwtSecret);
  const ctx: AppContext = {
    config,
    database: deps.database,
    db: deps.database.db,
    clock,
    jwtKey,
    secretBox: new SecretBox(resolveEncryptionKey(config.encryptionKey, config.dataDir)),
    mail: { brand: config.brand, publicUrl: config.publicUrl, supportEmail: config.supportEmail },
    outbox,
    payments: deps.paymentGateway ?? createGateway(config, { jwtKey, clock }),
    credentials: deps.credentialChecker ?? createCredentialChecker(config, { clock, log: app.log }),
    sessions: new SessionCache(deps.database, deps.database.db, clock),
    lastActive: new LastActive(deps.database.db, clock, app.log),
    apiKeys: new ApiKeyResolver(deps.database.db, clock, app.log, config.apiKeyRateLimit),
    revokePendingInvitations,
  };
  app.decorate('ctx', ctx);

  registerErrorHandling(app);
  registerProtocolErrors(app);
  registerCompression(app);
  await registerSecurity(app);
  registerHttpsRedirect(app, { publicUrl: config.publicUrl, trustProxy: config.trustProxy });
  // The request kernel before any route: each declares its access (modules/access).
  registerAccess(app, {
    sessionOf: liveSessionOf,
    keyOf: (ctx, key, ip) => ctx.apiKeys.keyOf(ctx, key, ip),
    isPlatformAdmin: (app, userId) => isPlatformAdmin(app.ctx.db, userId),
    stepUpMethods: (app, auth) => stepUpMethodsOf(app.ctx, auth),
  });
  await registerOpenApi(app);
  for (const module of MODULES) await app.register(module);

  await registerSpa(app, config.webDist);

  // Every instance, tests included: the cache is part of how a request is authenticated.
  ctx.sessions.start();
  app.addHook('onClose', async () => ctx.sessions.stop());
  app.addHook('onClose', async () => ctx.lastActive.settled());
  app.addHook('onClose', async () => ctx.apiKeys.settled());
  // A key to sign module launch tokens, before the first request (every instance: the first to
  // find none makes it, under a lock, so instances starting together make one).
  // A database out of reach at that moment stops nothing: the first launch makes the key then.
  app.addHook('onReady', async () => {
    await ensureSigningKey(ctx).catch((err: unknown) =>
      app.log.warn({ err }, 'no module launch signing key yet: the first launch will make it'),
    );
  });
  // The S3 client's SDK is loaded only by a server with a store, and before it listens.
  if (config.storage) {
    const storage = config.storage;
    app.addHook('onReady', async () => s3ClientFor(storage).load());
  }
  // The jobs, run by one runner (lib/jobs.ts) in every instance that starts workers: each claims
  // its rows with SKIP LOCKED (renewals and auto top-ups: only with billing on). The mail outbox is
  // ready once it listens for queued mail (or after the connect timeout: it keeps trying and
  // catches up).
  let running: { stop(): Promise<void> } | null = null;
  if (deps.startWorkers) {
    const jobs = [
      outbox.job,
      ...(config.features.billing ? [renewalJob(ctx), autoTopUpJob(ctx)] : []),
      dataExportJob(ctx, app.log),
      pruneJob(ctx, app.log),
      webhookJob(ctx, app.log),
    ];
    app.addHook('onReady', async () => {
      running = startJobs(jobs, app.log);
      await outbox.listening(config.databaseConnectTimeoutMs);
    });
  }
  app.addHook('onClose', async () => {
    await running?.stop();
    outbox.close();
  });
  return app as unknown as App;
}
