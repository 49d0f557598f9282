import crypto from 'node:crypto';
import {
  ActivityAction,
  ErrorCode,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_PREVIOUS_SECRET_HOURS,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookDeliveryListQuery,
  type WebhookDeliveryPage,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
  type WebhookEndpointList,
  type WebhookSecret,
  type WebhookTestSent,
  type WebhookUpdate,
} from '@portolan/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { hours } from '../../lib/clock.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { recordActivity } from '../activities/index.ts';
import { recordEvent } from '../events/index.ts';
import {
  countEndpoints,
  deliveryById,
  deliveryPage,
  findEndpoint,
  listEndpoints,
  ofOrganization,
  toEndpoint,
} from './repo.ts';
import { newWebhookSecret } from './signing.ts';
import { isForbiddenAddress, literalAddressOf } from './targets.ts';
import { webhookWorker } from './worker.ts';

const missing = () => notFound('Not found, or not an endpoint of this organization.');

/**
 * A URL naming a private, loopback or link-local address outright is refused at once (unless
 * WEBHOOK_ALLOW_PRIVATE_TARGETS): it could never be delivered. A name is checked at delivery
 * time, on what it resolves to then (targets.ts). The contract's schema has checked the rest;
 * the URL is read here as the sender will read it.
 */
function assertTarget(ctx: AppContext, url: string): void {
  const parsed = new URL(url);
  if (parsed.username || parsed.password)
    throw fieldError('url', 'Leave the user name and password out of the URL.');
  if (ctx.config.webhooks.allowPrivateTargets) return;
  const address = literalAddressOf(parsed);
  if (address && isForbiddenAddress(address)) {
    throw fieldError(
      'url',
      'This is a private, loopback or link-local address, which webhooks cannot reach. Use a public address.',
    );
  }
}

/** Runs `work` under the organization's row lock (the tenant lock order); 404 if it is gone. */
async function underOrganization<T>(
  ctx: AppContext,
  actor: Actor,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    if (!(await lockTenant(tx, { organizationId: actor.organization.id }))) throw missing();
    return work(tx);
  });
}

const seal = (ctx: AppContext, endpointId: string, secret: string) =>
  ctx.secretBox.seal(Buffer.from(secret, 'utf8'), endpointId);

/**
 * POST …/webhooks/: the endpoint and its secret (sealed at rest with the endpoint's id as
 * associated data). At most MAX_WEBHOOK_ENDPOINTS, counted under the organization's row lock so
 * that parallel creations cannot pass it.
 */
/** An endpoint added or deleted, in the organization's activities (the secret never). */
async function recordWebhookActivity(
  tx: Tx,
  ctx: AppContext,
  actor: Actor,
  action: typeof ActivityAction.CREATE_WEBHOOK | typeof ActivityAction.DELETE_WEBHOOK,
  endpoint: typeof webhookEndpoints.$inferSelect,
): Promise<void> {
  await recordActivity(tx, {
    userId: actor.userId,
    action,
    objectType: 'organization',
    objectId: actor.organization.id,
    organizationId: actor.organization.id,
    data: { webhook_id: endpoint.id, url: endpoint.url, events: endpoint.events },
    at: ctx.clock.now(),
  });
}

export async function createWebhook(
  ctx: AppContext,
  actor: Actor,
  body: WebhookCreate,
): Promise<WebhookEndpointCreated> {
  assertTarget(ctx, body.url);
  const id = crypto.randomUUID();
  const secret = newWebhookSecret();
  const now = ctx.clock.now();
  const row = await underOrganization(ctx, actor, async (tx) => {
    if ((await countEndpoints(tx, actor.organization.id)) >= MAX_WEBHOOK_ENDPOINTS) {
      throw conflict(
        ErrorCode.WEBHOOK_LIMIT,
        `This organization already has ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one before adding another.`,
        { limit: MAX_WEBHOOK_ENDPOINTS },
      );
    }
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        organization_id: actor.organization.id,
        url: body.url,
        description: body.description,
        events: body.events,
        secret: seal(ctx, id, secret),
        created_by: actor.userId,
        created_at: now,
        modified_at: now,
      })
      .returning();
    await recordWebhookActivity(tx, ctx, actor, ActivityAction.CREATE_WEBHOOK, created!);
    return created!;
  });
  return { ...toEndpoint(row), secret };
}

export async function listWebhooks(ctx: AppContext, actor: Actor): Promise<WebhookEndpointList> {
  return { results: (await listEndpoints(ctx.db, actor.organization.id)).map(toEndpoint) };
}

export async function getWebhook(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<WebhookEndpoint> {
  const row = await findEndpoint(ctx.db, actor.organization.id, id);
  if (!row) throw missing();
  return toEndpoint(row);
}

/** PATCH …/webhooks/{id}/: switching it on again also clears why and since when it failed. */
export async function updateWebhook(
  ctx: AppContext,
  actor: Actor,
  id: string,
  body: WebhookUpdate,
): Promise<WebhookEndpoint> {
  if (body.url !== undefined) assertTarget(ctx, body.url);
  const row = await underOrganization(ctx, actor, async (tx) => {
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        ...(body.url !== undefined && { url: body.url }),
        ...(body.events !== undefined && { events: body.events }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.enabled !== undefined && { enabled: body.enabled, disabled_reason: null }),
        ...(body.enabled === true && { failing_since: null }),
        modified_at: ctx.clock.now(),
      })
      .where(ofOrganization(actor.organization.id, id))
      .returning();
    if (!updated) throw missing();
    return updated;
  });
  // Its waiting deliveries may go now.
  if (body.enabled === true) webhookWorker(ctx).kick();
  return toEndpoint(row);
}

/** DELETE …/webhooks/{id}/: its deliveries and their attempts go with it; the events stay. */
export async function deleteWebhook(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await underOrganization(ctx, actor, async (tx) => {
    const [gone] = await tx
      .delete(webhookEndpoints)
      .where(ofOrganization(actor.organization.id, id))
      .returning();
    if (!gone) throw missing();
    await recordWebhookActivity(tx, ctx, actor, ActivityAction.DELETE_WEBHOOK, gone);
  });
}

/** GET …/webhooks/{id}/secret/ (with a step-up). */
export async function revealSecret(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<WebhookSecret> {
  const row = await findEndpoint(ctx.db, actor.organization.id, id);
  if (!row) throw missing();
  return { secret: ctx.secretBox.open(row.secret, row.id).toString('utf8') };
}

/**
 * POST …/webhooks/{id}/rotate-secret/ (with a step-up): a new secret; the one it replaces keeps
 * signing beside it for WEBHOOK_PREVIOUS_SECRET_HOURS, so the receiver can switch meanwhile.
 */
export async function rotateSecret(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<WebhookSecret> {
  const secret = newWebhookSecret();
  const now = ctx.clock.now();
  await underOrganization(ctx, actor, async (tx) => {
    const [rotated] = await tx
      .update(webhookEndpoints)
      .set({
        // The sealed value moves as it is: sealed for this endpoint, it opens in either column.
        previous_secret: sql`${webhookEndpoints.secret}`,
        previous_secret_until: new Date(now.getTime() + hours(WEBHOOK_PREVIOUS_SECRET_HOURS)),
        secret: seal(ctx, id, secret),
        modified_at: now,
      })
      .where(ofOrganization(actor.organization.id, id))
      .returning({ id: webhookEndpoints.id });
    if (!rotated) throw missing();
  });
  return { secret };
}

/**
 * POST …/webhooks/{id}/test/: a `webhook.test` event and its delivery to this endpoint only, in
 * one transaction. No endpoint subscribes to `webhook.test`, so recording the event fans it out
 * nowhere; the delivery here is its only one.
 */
export async function sendTestEvent(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<WebhookTestSent> {
  const now = ctx.clock.now();
  const sent = await underOrganization(ctx, actor, async (tx) => {
    if (!(await findEndpoint(tx, actor.organization.id, id))) throw missing();
    const eventId = await recordEvent(tx, {
      organizationId: actor.organization.id,
      type: 'webhook.test',
      subject: `webhook:${id}`,
      data: { endpoint_id: id, message: `A test event from ${ctx.config.brand}.` },
      at: now,
    });
    // Both drivers (node-postgres, PGlite) answer a raw statement's rows as `rows`.
    const inserted = (await tx.execute(sql`
      insert into ${webhookDeliveries}
        (endpoint_id, event_id, event_seq, subject, next_attempt_at, created_at)
      select ${id}::uuid, id, seq, subject, created_at, created_at
      from ${events} where id = ${eventId}
      returning id`)) as unknown as { rows: { id: string }[] };
    const delivery = inserted.rows[0];
    return { event_id: eventId, delivery_id: delivery!.id };
  });
  webhookWorker(ctx).kick();
  return sent;
}

/** GET …/webhooks/{id}/deliveries/: newest first, each with its attempts. */
export async function listDeliveries(
  ctx: AppContext,
  actor: Actor,
  id: string,
  query: WebhookDeliveryListQuery,
): Promise<WebhookDeliveryPage> {
  if (!(await findEndpoint(ctx.db, actor.organization.id, id))) throw missing();
  return deliveryPage(ctx.db, id, query);
}

/**
 * POST …/webhooks/deliveries/{deliveryId}/retry/: due now again; a failed one is pending again
 * with its attempts kept (so one more failure fails it again). A delivery of another
 * organization is not found.
 */
export async function retryDelivery(
  ctx: AppContext,
  actor: Actor,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const delivery = await underOrganization(ctx, actor, async (tx) => {
    const ours = tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organization_id, actor.organization.id));
    const [retried] = await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', next_attempt_at: ctx.clock.now(), completed_at: null })
      .where(
        and(eq(webhookDeliveries.id, deliveryId), inArray(webhookDeliveries.endpoint_id, ours)),
      )
      .returning({ id: webhookDeliveries.id });
    if (!retried) throw notFound('Not found, or not a delivery of this organization.');
    return (await deliveryById(tx, retried.id))!;
  });
  webhookWorker(ctx).kick();
  return delivery;
}
