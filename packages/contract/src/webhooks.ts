/**
 * Outbound webhooks (issue 21 item 2): their limits and states. Zod-free: the web app's pages and
 * the server's rules use the same values (the schemas are in webhook-schemas.ts).
 */

/** A signing secret: this prefix, then 32 random bytes in base64 (the Standard Webhooks format). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Endpoints an organization may have at once (409 WEBHOOK_LIMIT beyond). */
export const MAX_WEBHOOK_ENDPOINTS = 20;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
/** After a rotation the previous secret signs beside the new one this long. */
export const WEBHOOK_PREVIOUS_SECRET_HOURS = 24;
/** An endpoint whose deliveries have all failed this long is switched off, its OWNERs told. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;
/** How much of a receiver's answer the delivery log keeps (bytes). */
export const WEBHOOK_RESPONSE_EXCERPT_BYTES = 1024;
export const WEBHOOK_DELIVERY_PAGE_SIZE = 20;
export const WEBHOOK_DELIVERY_MAX_LIMIT = 100;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
