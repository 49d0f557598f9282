/**
 * The integration platform (issue 21): organization API keys, the event catalogue that webhooks
 * and the events feed carry, and module launches. Zod-free, so the web app imports it without
 * pulling zod into its bundle; the request and answer schemas are in integration-schemas.ts.
 */
import { ORG_PERMISSIONS, WORKSPACE_PERMISSIONS, type Permission } from './access.ts';

/** Every API key starts with this; the rest is 32 random bytes, base64url (43 characters). */
export const API_KEY_PREFIX = 'ptl_';
/** How much of a key is kept in clear to tell keys apart in lists: the prefix and 4 more characters. */
export const API_KEY_HINT_LENGTH = API_KEY_PREFIX.length + 4;
/** Live (not revoked) keys an organization may hold at once. */
export const MAX_API_KEYS_PER_ORGANIZATION = 50;
export const API_KEY_NAME_MAX_LENGTH = 100;
/** Workspaces a key may be limited to. */
export const MAX_API_KEY_WORKSPACES = 100;

/**
 * What no key may carry, whoever creates it: keys and webhooks (a key must not make keys or read
 * webhook secrets), the security policy and the organization's archive (actions that ask a person
 * to prove presence).
 */
const PERSON_ONLY: readonly Permission[] = [
  'organization.api_keys.manage',
  'organization.webhooks.manage',
  'organization.security.manage',
  'organization.data.export',
];

/** The permissions a key may be given: the catalogue's, less those only a person may use. */
export const API_KEY_PERMISSIONS = (
  [...Object.keys(ORG_PERMISSIONS), ...Object.keys(WORKSPACE_PERMISSIONS)] as Permission[]
).filter((p) => !PERSON_ONLY.includes(p));

/**
 * The events of an organization (GET /v1/webhooks/event-types/): what webhooks deliver and the
 * events feed lists, each with what it means.
 */
export const EVENT_TYPE_CATALOGUE = [
  {
    type: 'member.added',
    description: 'A member joined the organization or one of its workspaces.',
  },
  {
    type: 'member.removed',
    description: 'A member left or was removed from the organization or a workspace.',
  },
  { type: 'member.role_changed', description: "A member's role changed." },
  {
    type: 'invitation.sent',
    description: 'Someone was invited to the organization or a workspace.',
  },
  { type: 'invitation.accepted', description: 'An invitation was accepted.' },
  { type: 'invitation.declined', description: 'An invitation was declined.' },
  {
    type: 'workspace.created',
    description: 'A workspace was created (a STAFF member’s waits for approval).',
  },
  { type: 'workspace.approved', description: 'A workspace waiting for approval was approved.' },
  { type: 'workspace.deleted', description: 'A workspace was deleted.' },
  { type: 'module.enabled', description: 'A module was switched on in a workspace.' },
  { type: 'module.disabled', description: 'A module was switched off in a workspace.' },
  { type: 'subscription.changed', description: 'The subscription began, changed plan or ended.' },
  { type: 'balance.charged', description: 'A service was charged to the balance.' },
  { type: 'balance.topped_up', description: 'Funds were added to the balance.' },
  { type: 'balance.low', description: 'The balance fell below its low-balance threshold.' },
  { type: 'invoice.paid', description: 'An invoice was paid.' },
  {
    type: 'invoice.refunded',
    description: 'An invoice was refunded, in whole or in part, and its credit note issued.',
  },
  { type: 'api_key.created', description: 'An API key was created.' },
  { type: 'api_key.revoked', description: 'An API key was revoked.' },
  { type: 'webhook.test', description: 'A test event, sent on request to one endpoint only.' },
] as const;
export type EventType = (typeof EVENT_TYPE_CATALOGUE)[number]['type'];
export const EVENT_TYPES = EVENT_TYPE_CATALOGUE.map((e) => e.type) as [EventType, ...EventType[]];
/** What an endpoint may subscribe to: every type but the test event, which goes only where asked. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((t) => t !== 'webhook.test');
/** How long the events feed keeps an event. */
export const EVENT_RETENTION_DAYS = 30;
