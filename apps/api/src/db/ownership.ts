import type { PgTable } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.ts';

/**
 * Which part of the API owns each table of the schema (issue 19): only the owner writes it
 * (insert, update, delete); another module asks the owner's face, passing its transaction.
 * Owners are paths under apps/api/src: a module (`modules/<name>`), or the lib or plugin that
 * keeps the table. `test/ownership.test.ts` checks the map covers the schema and finds no write
 * outside the owner.
 */

/** The schema's tables by the name the code imports them under. */
export type TableName = {
  [K in keyof typeof schema]: (typeof schema)[K] extends PgTable ? K : never;
}[keyof typeof schema];

export const TABLE_OWNERS = {
  users: 'modules/users',
  userActivity: 'modules/users',
  sessionActivity: 'modules/users',
  sessions: 'modules/auth',
  oneTimeCodes: 'modules/auth',
  oauthAccounts: 'modules/auth',
  oidcLogins: 'modules/auth',
  loginFailures: 'modules/auth',
  loginThrottles: 'modules/auth',
  mfaChallenges: 'modules/auth',
  userMfa: 'modules/mfa',
  recoveryCodes: 'modules/mfa',
  passkeys: 'modules/mfa',
  webauthnChallenges: 'modules/mfa',
  securityEvents: 'modules/security-log',
  mailOutbox: 'lib/mail',
  activities: 'modules/activities',
  uploads: 'modules/uploads',
  organizations: 'modules/organizations',
  clients: 'modules/clients',
  clientModules: 'modules/clients',
  organizationMembers: 'modules/members',
  clientMembers: 'modules/members',
  invitations: 'modules/invitations',
  notifications: 'modules/notifications',
  accessRules: 'modules/permissions',
  accessRulePermissions: 'modules/permissions',
  customRoles: 'modules/permissions',
  customRoleRules: 'modules/permissions',
  memberCustomRoles: 'modules/permissions',
  memberPermissionOverrides: 'modules/permissions',
  plans: 'modules/billing',
  paymentMethods: 'modules/billing',
  subscriptions: 'modules/billing',
  invoices: 'modules/billing',
  checkouts: 'modules/billing',
  idempotencyKeys: 'modules/billing',
  gatewayEvents: 'modules/billing',
  fundPackages: 'modules/billing',
  balanceServices: 'modules/billing',
  billingAccounts: 'modules/billing',
  ledgerEntries: 'modules/billing',
  workspaceSpendCaps: 'modules/billing',
  autoTopUps: 'modules/billing',
  billingDetails: 'modules/billing',
  creditNotes: 'modules/billing',
  platformAdmins: 'modules/release-notes',
  releaseNotes: 'modules/release-notes',
  releaseNoteViews: 'modules/release-notes',
  shareLinks: 'modules/share-links',
  dataExports: 'modules/data-exports',
  rateLimits: 'plugins/rate-limit-store.ts',
  apiKeys: 'modules/api-keys',
  events: 'modules/events',
  signingKeys: 'modules/module-launch',
  webhookEndpoints: 'modules/webhooks',
  webhookDeliveries: 'modules/webhooks',
  webhookAttempts: 'modules/webhooks',
} as const satisfies Record<TableName, string>;

/**
 * Tables no data export carries, each with why. Every other table is exported by its owner's
 * exporter (the data-exports module collects them); test/ownership.test.ts holds both lists to
 * the schema.
 */
export const NOT_EXPORTED: Partial<Record<TableName, string>> = {
  userActivity: 'one marker per user for the members lists; exported as last_active_at',
  sessionActivity: "when each session last made a request, for the account's own sessions list",
  oneTimeCodes: 'activation and reset codes: credentials, short-lived, pruned',
  oidcLogins: 'a Google sign-in in flight (state and nonce), minutes long, pruned',
  loginFailures: 'failed sign-in attempts by e-mail, kept days for throttling, pruned',
  loginThrottles: 'throttling counters by e-mail and address, minutes long',
  mfaChallenges: 'sign-ins waiting for their second factor, minutes long, pruned',
  userMfa: 'the sealed TOTP secret and failure counters: credentials; the log records enrolment',
  recoveryCodes: 'HMACs of recovery codes: credentials',
  passkeys: "passkeys' public keys: credentials; the security log records when each was added",
  webauthnChallenges: 'passkey ceremonies in flight, minutes long, pruned',
  mailOutbox: 'e-mails on their way; they carry links with tokens, pruned once sent',
  checkouts: "the gateway's payment pages; what they paid is in invoices and the ledger",
  idempotencyKeys: "requests' replay records (fingerprints), pruned",
  gatewayEvents:
    "the gateway's messages: its references only, applied to subscriptions and invoices",
  fundPackages: 'the catalogue of fund packages, the same for everyone',
  balanceServices: 'the catalogue of paid services, the same for everyone',
  platformAdmins: "the platform's own staff, managed by npm run admin, no tenant's data",
  releaseNotes: 'product news, the same for everyone',
  releaseNoteViews: 'the newest release note a user has seen: a pointer for the dot',
  shareLinks: 'read-only links: only token hashes are kept, and they expire',
  dataExports: 'the exports themselves',
  rateLimits: 'per-address counters, minutes long',
  apiKeys:
    "the organization's API keys: credentials (hashes); the activities record each creation and revocation",
  events:
    'the integration feed of 30 days, pruned; what it tells is in the activities, members and billing the export carries',
  signingKeys: "the platform's keys that sign module launch tokens: credentials, no tenant's data",
  webhookEndpoints:
    "the organization's webhook endpoints: each holds a signing secret (a credential, sealed)",
  webhookDeliveries:
    "the events' way to the endpoints: transient, gone with the events after 30 days",
  webhookAttempts: "receivers' answers to each delivery, gone with their deliveries",
};
