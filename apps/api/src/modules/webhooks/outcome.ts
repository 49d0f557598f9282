import { WEBHOOK_DISABLE_AFTER_DAYS } from '@portolan/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import {
  organizationMembers,
  organizations,
  users,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { enqueueMail } from '../../lib/mail/outbox.ts';
import { webhookDisabledMail } from '../../lib/mail/templates.ts';
import type { ClaimedDelivery } from './claim.ts';
import { succeeded, type AttemptResult } from './send.ts';

const utc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Records one attempt and what follows from it, in one transaction: the attempt row; the
 * delivery succeeded, due again after the next wait of WEBHOOK_RETRY_SCHEDULE, or failed after
 * the last; the endpoint's run of failures (`failing_since`), and after WEBHOOK_DISABLE_AFTER_DAYS
 * of it the endpoint switched off and its organization's OWNERs e-mailed. Locks the endpoint,
 * then the delivery: the order in which deleting an endpoint reaches its deliveries.
 * Answers whether mail was queued.
 */
export async function recordOutcome(
  ctx: AppContext,
  claimed: ClaimedDelivery,
  attemptedAt: Date,
  result: AttemptResult,
): Promise<boolean> {
  const ok = succeeded(result);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [endpoint] = await tx
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, claimed.endpoint.id))
      .for('no key update');
    const [delivery] = endpoint
      ? await tx
          .select({ attempts: webhookDeliveries.attempts, status: webhookDeliveries.status })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.id, claimed.id))
          .for('update')
      : [];
    // Deleted meanwhile (the endpoint, or the event by the feed's retention): nothing to record.
    if (!endpoint || !delivery) return false;
    await tx.insert(webhookAttempts).values({
      delivery_id: claimed.id,
      attempted_at: attemptedAt,
      attempt: claimed.attempts,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      response_excerpt: result.excerpt,
      error: result.error,
    });
    // Applied only while the claim is still this one: a later claim (the lease ran out) records
    // its own outcome. A retry asked for while this attempt was under way is answered by it.
    if (delivery.status === 'pending' && delivery.attempts === claimed.attempts) {
      const wait = ctx.config.webhooks.retryScheduleMs[claimed.attempts - 1];
      await tx
        .update(webhookDeliveries)
        .set(
          ok
            ? { status: 'succeeded', completed_at: now, claimed_until: null }
            : wait === undefined
              ? { status: 'failed', completed_at: now, claimed_until: null }
              : { next_attempt_at: new Date(now.getTime() + wait), claimed_until: null },
        )
        .where(eq(webhookDeliveries.id, claimed.id));
    }
    if (ok) {
      if (endpoint.failing_since) {
        await tx
          .update(webhookEndpoints)
          .set({ failing_since: null })
          .where(eq(webhookEndpoints.id, endpoint.id));
      }
      return false;
    }
    const since = endpoint.failing_since ?? attemptedAt;
    const disable =
      endpoint.enabled && now.getTime() - since.getTime() >= days(WEBHOOK_DISABLE_AFTER_DAYS);
    await tx
      .update(webhookEndpoints)
      .set({
        failing_since: since,
        ...(disable && {
          enabled: false,
          disabled_reason: `Switched off: every delivery failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days (since ${utc(since)}).`,
          modified_at: now,
        }),
      })
      .where(eq(webhookEndpoints.id, endpoint.id));
    if (disable) await tellOwners(ctx, tx, { ...endpoint, failing_since: since });
    return disable;
  });
}

/** E-mails the organization's OWNERs that an endpoint was switched off, in the caller's transaction. */
async function tellOwners(
  ctx: AppContext,
  tx: Tx,
  endpoint: typeof webhookEndpoints.$inferSelect & { failing_since: Date },
): Promise<void> {
  const owners = await tx
    .select({ email: users.email, first_name: users.first_name, organization: organizations.name })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.user_id))
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organization_id))
    .where(
      and(
        eq(organizationMembers.organization_id, endpoint.organization_id),
        eq(organizationMembers.role, 'OWNER'),
        eq(organizationMembers.status, 'MEMBER'),
        eq(users.enabled, true),
        isNull(users.deleted_at),
      ),
    );
  for (const owner of owners) {
    await enqueueMail(
      tx,
      ctx.clock,
      webhookDisabledMail(ctx.mail, owner.email, owner.first_name, {
        organization: owner.organization,
        url: endpoint.url,
        since: utc(endpoint.failing_since),
        settingsPath: `/ps/organization-settings/${endpoint.organization_id}/webhooks`,
      }),
    );
  }
}
