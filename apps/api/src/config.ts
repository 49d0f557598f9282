import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  APP_PROFILE_NAMES,
  APP_VERSION,
  MODULE_CODES,
  NOTIFICATION_HEARTBEAT_MS,
  STEP_UP_MAX_AGE_S_DEFAULT,
  type AppProfile,
  type ModuleCode,
} from '@portolan/contract';
import { parseStorageUrl, StorageUrlError, type S3Settings } from './lib/s3/storage-url.ts';

/**
 * All configuration comes from the environment and is parsed here once, at start-up.
 * Defaults make `npm start` work with nothing set; a bad value stops start-up naming the variable.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
      message: 'expected true or false',
    })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

/** A duration in milliseconds, at least `min`, at most a day. */
const ms = (fallback: number, min: number) =>
  z.coerce
    .number({ message: 'expected a number of milliseconds' })
    .int()
    .min(min)
    .max(86_400_000)
    .default(fallback);

const csv = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `expected a URL starting with ${protocols.join(' or ')}//`,
    );

const isModuleCode = (code: string): code is ModuleCode =>
  (MODULE_CODES as readonly string[]).includes(code);

/**
 * MODULE_URLS (issue 21 item 4): where each module's own app receives a launch, as
 * `TR=https://tr.example.com/launch,PF=http://localhost:4100/` (a comma inside a URL written
 * %2C). Each code once, a module code; each URL http(s) without a user name or password (the
 * browser posts the launch token to it).
 */
const moduleUrls = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const urls: Partial<Record<ModuleCode, string>> = {};
    const entries = (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const entry of entries) {
      const at = entry.indexOf('=');
      const code = (at < 0 ? entry : entry.slice(0, at)).trim().toUpperCase();
      const target = at < 0 ? '' : entry.slice(at + 1).trim();
      const problem =
        at < 0
          ? 'an entry without ='
          : !isModuleCode(code)
            ? `${/^\w{1,20}$/.test(code) ? `"${code}"` : 'a code'} is not a module code (${MODULE_CODES.join(', ')})`
            : urls[code] !== undefined
              ? `${code} is given twice`
              : launchUrlProblem(code, target);
      if (problem) ctx.addIssue({ code: 'custom', message: `${problem}; write CODE=URL,…` });
      else urls[code as ModuleCode] = target;
    }
    return urls;
  });

/** What is wrong with a module's launch URL (never repeating it: it could hold a password). */
function launchUrlProblem(code: ModuleCode, target: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(target);
  } catch {
    return `${code}: not a URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${code}: the URL must start with http:// or https://`;
  if (parsed.username || parsed.password)
    return `${code}: the URL must not hold a user name or password`;
  return null;
}

/** A duration as WEBHOOK_RETRY_SCHEDULE writes it: a whole number and a unit (`5s`, `30m`, `24h`, `2d`). */
const DURATION = /^(\d{1,6})(s|m|h|d)$/;
const DURATION_UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A comma-separated list of durations, in milliseconds (WEBHOOK_RETRY_SCHEDULE: the waits after
 * each failed attempt). Each from 1 second (no retry loops hot) to 7 days; 1 to 20 of them.
 */
const durationList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const parts = value.split(',').map((s) => s.trim());
      const delays = parts.map((part) => {
        const match = DURATION.exec(part);
        if (!match) return NaN;
        return Number(match[1]) * DURATION_UNIT_MS[match[2] as keyof typeof DURATION_UNIT_MS];
      });
      if (parts.length > 20 || delays.some((d) => !(d >= 1_000 && d <= 7 * 86_400_000))) {
        ctx.addIssue({
          code: 'custom',
          message:
            'expected 1 to 20 durations from 1s to 7d separated by commas, such as 5s,5m,30m,2h,1d',
        });
        return z.NEVER;
      }
      return delays;
    });

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** Unset: the address the server listens on (defaultPublicUrl). */
  PUBLIC_URL: url(['http:', 'https:'])
    .optional()
    .transform((v) => v?.replace(/\/+$/, '')),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  /** Server processes with DATABASE_URL (one per core unless set); the embedded database: one. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().default('Portolan <no-reply@portolan.local>'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Seals TOTP secrets at rest (lib/secret-box.ts); unset: generated in DATA_DIR/secrets. */
  ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** A sensitive action needs a sign-in or step-up this recent (issue 20 item 4). */
  STEP_UP_MAX_AGE_S: z.coerce.number().int().min(1).max(86_400).default(STEP_UP_MAX_AGE_S_DEFAULT),
  /** Requests one API key may make a minute, counted by each server process (issue 21 item 1). */
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000_000).default(600),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: url(['http:', 'https:']).default('https://accounts.google.com'),
  PAYMENT_GATEWAY: z.enum(['sandbox', 'stripe']).default('sandbox'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_API_BASE: url(['http:', 'https:']).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  FEATURE_REGISTRATION: bool(true),
  FEATURE_GOOGLE_LOGIN: bool(true),
  FEATURE_BILLING: bool(true),
  FEATURE_AUTO_PICK_WORKSPACE: bool(false),
  FEATURE_MODERN_LOOK: bool(false),
  FEATURE_ANALYTICS: bool(true),
  APP_PROFILE: z.enum(APP_PROFILE_NAMES as [AppProfile, ...AppProfile[]]).default('transit'),
  SUPPORT_EMAIL: z.email().default('support@example.com'),
  INTERNAL_EMAIL_DOMAINS: csv,
  CUSTOM_TEMPLATE_EMAIL_DOMAINS: csv,
  /** Analytics (spec §1): with FEATURE_ANALYTICS on, both set, the browser sends page views and events. */
  ANALYTICS_ID: z.string().optional(),
  ANALYTICS_URL: url(['http:', 'https:']).optional(),
  /** The marketplace-seller credential checker's endpoint; unset: every credential counts as valid. */
  CREDENTIAL_CHECK_URL: url(['http:', 'https:']).optional(),
  /** Where each module's own app receives a launch; unset: every module keeps its page in Portolan. */
  MODULE_URLS: moduleUrls,
  /** Uploads and export archives on an S3-compatible store (lib/s3/storage-url.ts); unset: DATA_DIR. */
  STORAGE_URL: z.string().optional(),
  /** Hosts whose plain-http visits are redirected to https (spec §2), besides PUBLIC_URL's. */
  FORCE_HTTPS_HOSTS: csv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool(false),
  /** Stalled clients: a request (headers and body) must arrive within this. */
  REQUEST_TIMEOUT_MS: ms(30_000, 1),
  /** An idle keep-alive connection is closed after this; above the idle timeout of proxies. */
  KEEP_ALIVE_TIMEOUT_MS: ms(72_000, 1),
  /** Open HTTP connections at once; further ones are closed as soon as they are accepted. */
  MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1024),
  /** PostgreSQL (DATABASE_URL): a connection must open within this, or the request answers 503. */
  DATABASE_CONNECT_TIMEOUT_MS: ms(2_000, 100),
  /** PostgreSQL: statements running longer are cancelled (statement_timeout). */
  DATABASE_STATEMENT_TIMEOUT_MS: ms(5_000, 100),
  /** The bell's event stream: a heartbeat (and a check that the session is still live) this often. */
  NOTIFICATION_HEARTBEAT_MS: ms(NOTIFICATION_HEARTBEAT_MS, 50),
  /** Outbound webhooks (issue 21 item 2): the waits between a delivery's attempts, then it fails. */
  WEBHOOK_RETRY_SCHEDULE: durationList('5s,5m,30m,2h,5h,10h,10h,24h,24h'),
  /** Webhooks may target private, loopback and link-local addresses (a local receiver, tests). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(false),
  /** Where the built web app is; defaults to apps/web/dist beside this package. */
  WEB_DIST: z.string().optional(),
});

/** A FORCE_HTTPS_HOSTS entry: a host name or [IPv6 address], with an optional port. */
const HOST_ENTRY =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** The repository root (apps/api/src/ is three levels down). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  // Empty strings count as unset, so `FOO= npm start` behaves like no FOO at all.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // Stripe needs its keys; the sandbox needs nothing.
  if (e.PAYMENT_GATEWAY === 'stripe') {
    const missing = (['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const).filter(
      (name) => !e[name],
    );
    if (missing.length)
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((name) => `  ${name}: required when PAYMENT_GATEWAY=stripe`).join('\n')}`,
      );
  }
  // Spec §2's https redirect learns the visitor's protocol from X-Forwarded-Proto, which only a
  // trusted proxy may set: forced hosts without TRUST_PROXY would silently never redirect.
  const forceHttpsProblems = [
    ...e.FORCE_HTTPS_HOSTS.filter((h) => !HOST_ENTRY.test(h)).map(
      (h) =>
        `  FORCE_HTTPS_HOSTS: "${h}" is not a host name (write portal.example.com, no scheme or path)`,
    ),
    ...(e.FORCE_HTTPS_HOSTS.length && !e.TRUST_PROXY
      ? [
          '  FORCE_HTTPS_HOSTS: needs TRUST_PROXY=true (the protocol is read from X-Forwarded-Proto)',
        ]
      : []),
  ];
  if (forceHttpsProblems.length)
    throw new ConfigError(`Invalid configuration:\n${forceHttpsProblems.join('\n')}`);
  // Parsed here so a bad value stops start-up; the message never repeats it (it holds a secret).
  let storage: S3Settings | undefined;
  try {
    storage = e.STORAGE_URL ? parseStorageUrl(e.STORAGE_URL) : undefined;
  } catch (err) {
    if (!(err instanceof StorageUrlError)) throw err;
    throw new ConfigError(`Invalid configuration:\n  STORAGE_URL: ${err.message}`);
  }
  // Relative paths are taken from where the command was typed (npm's INIT_CWD), so that
  // `npm start` and `npm run seed` from the repository root share ./data.
  const baseDir = env.INIT_CWD ?? process.cwd();
  const dataDir = e.DATA_DIR ? path.resolve(baseDir, e.DATA_DIR) : path.join(REPO_ROOT, 'data');
  return {
    version: APP_VERSION,
    brand: 'Portolan',
    port: e.PORT,
    host: e.HOST,
    /** The base of every link the product builds (e-mails, share links, checkout returns). */
    publicUrl: e.PUBLIC_URL ?? defaultPublicUrl(e.HOST, e.PORT),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    /**
     * How many server processes `npm start` runs (server.ts): one per core on PostgreSQL, where
     * instances share everything through the database; always one on the embedded database,
     * which lives inside its process.
     */
    workers: e.DATABASE_URL ? (e.WEB_CONCURRENCY ?? os.availableParallelism()) : 1,
    /** WEB_CONCURRENCY as given, to say at start when it cannot apply. */
    requestedWorkers: e.WEB_CONCURRENCY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    jwtSecret: e.JWT_SECRET,
    encryptionKey: e.ENCRYPTION_KEY,
    stepUpMaxAgeMs: e.STEP_UP_MAX_AGE_S * 1000,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    google: {
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
      issuer: e.GOOGLE_ISSUER,
    },
    payments: {
      gateway: e.PAYMENT_GATEWAY,
      stripeSecretKey: e.STRIPE_SECRET_KEY,
      stripeApiBase: e.STRIPE_API_BASE,
      stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    },
    features: {
      registration: e.FEATURE_REGISTRATION,
      googleLogin: e.FEATURE_GOOGLE_LOGIN,
      billing: e.FEATURE_BILLING,
      autoPickWorkspace: e.FEATURE_AUTO_PICK_WORKSPACE,
      modernLook: e.FEATURE_MODERN_LOOK,
      analytics: e.FEATURE_ANALYTICS,
    },
    appProfile: e.APP_PROFILE,
    supportEmail: e.SUPPORT_EMAIL,
    internalEmailDomains: e.INTERNAL_EMAIL_DOMAINS,
    customTemplateEmailDomains: e.CUSTOM_TEMPLATE_EMAIL_DOMAINS,
    analytics: { id: e.ANALYTICS_ID, url: e.ANALYTICS_URL },
    credentialCheckUrl: e.CREDENTIAL_CHECK_URL,
    /** Each configured module's launch URL (MODULE_URLS); a module without one is not launched. */
    moduleUrls: e.MODULE_URLS,
    /** The S3-compatible store of uploads and export archives; undefined: under dataDir. */
    storage,
    forceHttpsHosts: e.FORCE_HTTPS_HOSTS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    http: {
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
    },
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    notificationHeartbeatMs: e.NOTIFICATION_HEARTBEAT_MS,
    /** Outbound webhooks: the wait after each failed attempt, and whether private targets are allowed. */
    webhooks: {
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
    /** Where the built web app lives; served with an SPA fallback when present. */
    webDist: e.WEB_DIST
      ? path.resolve(e.WEB_DIST)
      : path.resolve(import.meta.dirname, '../../web/dist'),
  };
}

/**
 * Where links point when PUBLIC_URL is unset: the address the server listens on, named
 * `localhost` when that is a loopback or every interface (0.0.0.0, ::).
 */
export function defaultPublicUrl(host: string, port: number): string {
  const local = ['', 'localhost', '0.0.0.0', '::', '::1', '[::]', '[::1]'];
  const name =
    local.includes(host.toLowerCase()) || /^127\./.test(host)
      ? 'localhost'
      : host.includes(':') && !host.startsWith('[')
        ? `[${host}]`
        : host;
  return port === 80 ? `http://${name}` : `http://${name}:${port}`;
}

export type AppConfig = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}
