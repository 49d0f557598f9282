import crypto from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@portolan/contract';

/**
 * What a receiver gets, per the Standard Webhooks spec (standardwebhooks.com): the body, and the
 * headers that let it check the body came from us, unchanged, and recently.
 */

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = (): string =>
  WEBHOOK_SECRET_PREFIX + crypto.randomBytes(32).toString('base64');

/** The event as delivered: built from the stored event, so every attempt sends the same bytes. */
export interface WebhookMessage {
  /** The event's id: `webhook-id`, the same on every attempt (receivers drop duplicates by it). */
  id: string;
  type: string;
  at: Date;
  data: Record<string, unknown>;
}

export const messageBody = (message: WebhookMessage): string =>
  JSON.stringify({ type: message.type, timestamp: message.at.toISOString(), data: message.data });

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the secret's bytes after `whsec_`. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const mac = crypto
    .createHmac('sha256', key)
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * The headers of one attempt. Each secret signs (the new and, for a day after a rotation, the
 * previous one): the spec's space-separated list, so a receiver holding either accepts it.
 */
export function signedHeaders(
  message: WebhookMessage,
  body: string,
  secrets: readonly string[],
  at: Date,
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, message.id, timestamp, body)).join(' '),
  };
}
