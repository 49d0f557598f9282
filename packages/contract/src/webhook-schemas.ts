import { z } from 'zod';
import { EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from './integrations.ts';
import { pageQuerySchema, paginated } from './pagination.ts';
import { singleLine } from './text.ts';
import {
  WEBHOOK_DELIVERY_MAX_LIMIT,
  WEBHOOK_DELIVERY_PAGE_SIZE,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
} from './webhooks.ts';

/**
 * Outbound webhooks (issue 21 item 2): an organization's endpoints, their signing secrets, and the
 * log of their deliveries. Deliveries follow the Standard Webhooks spec (webhook-id,
 * webhook-timestamp, webhook-signature). Its constants are in webhooks.ts (zod-free, for the web app).
 */

const datetime = () => z.iso.datetime({ offset: true });
const id = () => z.uuid('Not a valid id.');

/**
 * True when a URL carries a user name or password (`https://user:pass@host/`): an `@` in its
 * authority, which ends at the first `/`, `\`, `?` or `#` (as URL parsers read http and https).
 */
const hasCredentials = (value: string): boolean =>
  (value.replace(/^[a-z][a-z0-9+.-]*:[/\\]*/i, '').split(/[/\\?#]/)[0] ?? '').includes('@');

const urlSchema = singleLine()
  .min(1, 'Enter the URL that receives the events.')
  .max(WEBHOOK_URL_MAX_LENGTH, `Keep the URL under ${WEBHOOK_URL_MAX_LENGTH + 1} characters.`)
  .pipe(
    z.url({
      protocol: /^https?$/,
      error:
        'Enter a full URL starting with https:// or http://, such as https://example.com/hooks.',
    }),
  )
  .refine((value) => !hasCredentials(value), 'Leave the user name and password out of the URL.');

const eventsSchema = z
  .array(
    z.enum(
      SUBSCRIBABLE_EVENT_TYPES as [string, ...string[]],
      'Choose events from the catalogue (GET /v1/webhooks/event-types/).',
    ),
  )
  .min(1, 'Choose at least one event.')
  .max(SUBSCRIBABLE_EVENT_TYPES.length)
  .refine((list) => new Set(list).size === list.length, 'List each event once.');

const descriptionSchema = singleLine().max(
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  `Keep the description under ${WEBHOOK_DESCRIPTION_MAX_LENGTH + 1} characters.`,
);

/** POST /v1/organizations/{orgId}/webhooks/ */
export const webhookCreateSchema = z.strictObject({
  url: urlSchema,
  events: eventsSchema,
  description: descriptionSchema.default(''),
});
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

/** PATCH …/webhooks/{id}/: what is given changes; `enabled: true` also clears a server's switch-off. */
export const webhookUpdateSchema = z.strictObject({
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  description: descriptionSchema.optional(),
  enabled: z.boolean('Give enabled as true or false.').optional(),
});
export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;

/** An endpoint as lists show it: never its secret. */
export const webhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  /** Why the server switched it off (failing for WEBHOOK_DISABLE_AFTER_DAYS); null otherwise. */
  disabled_reason: z.string().nullable(),
  /** The first failure of the current run of failures; null after a success. */
  failing_since: datetime().nullable(),
  /** Until when the secret before the last rotation still signs beside the new one. */
  previous_secret_until: datetime().nullable(),
  created_at: datetime(),
  modified_at: datetime(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The creation answer: the endpoint and its signing secret. */
export const webhookEndpointCreatedSchema = webhookEndpointSchema.extend({ secret: z.string() });
export type WebhookEndpointCreated = z.infer<typeof webhookEndpointCreatedSchema>;

export const webhookEndpointListSchema = z.object({ results: z.array(webhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

/** GET …/{id}/secret/ and POST …/{id}/rotate-secret/. */
export const webhookSecretSchema = z.object({ secret: z.string() });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const webhookParamsSchema = z.strictObject({ orgId: id(), id: id() });
export const webhookDeliveryParamsSchema = z.strictObject({ orgId: id(), deliveryId: id() });

export const webhookDeliveryListQuerySchema = pageQuerySchema(
  WEBHOOK_DELIVERY_PAGE_SIZE,
  WEBHOOK_DELIVERY_MAX_LIMIT,
);
export type WebhookDeliveryListQuery = z.infer<typeof webhookDeliveryListQuerySchema>;

/** One attempt of a delivery. */
export const webhookAttemptSchema = z.object({
  /** Which attempt of the delivery (1 for the first); one whose worker died leaves a gap. */
  attempt: z.number().int(),
  attempted_at: datetime(),
  /** The answer's HTTP status; null when none came (refused, timed out, a private address). */
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  /** The answer's first WEBHOOK_RESPONSE_EXCERPT_BYTES bytes. */
  response_excerpt: z.string(),
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** One event for one endpoint, with its attempts, oldest first. */
export const webhookDeliverySchema = z.object({
  id: z.uuid(),
  /** The event's id: the `webhook-id` of every attempt. */
  event_id: z.uuid(),
  event_type: z.enum(EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempt_count: z.number().int(),
  /** When the next attempt is due; null once it succeeded or failed for good. */
  next_attempt_at: datetime().nullable(),
  created_at: datetime(),
  completed_at: datetime().nullable(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryPageSchema = paginated(webhookDeliverySchema);
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;

/** POST …/{id}/test/: the test event and its delivery to this endpoint, on their way. */
export const webhookTestSentSchema = z.object({ event_id: z.uuid(), delivery_id: z.uuid() });
export type WebhookTestSent = z.infer<typeof webhookTestSentSchema>;
