import { ErrorCode, type PaymentMethod, type paymentMethodListSchema } from '@portolan/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { paymentMethods, subscriptions } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { findSubscription } from './subscription-repo.ts';

/**
 * An organization's cards (spec §7 "payment-methods"): the list with the default one, choosing
 * the default, removing one. Cards are added through a hosted page (checkout-service.ts).
 */

type PaymentMethodList = z.infer<typeof paymentMethodListSchema>;
type CardRow = typeof paymentMethods.$inferSelect;

/** A subscription renews (or retries) with its default card in these states. */
const RENEWING = new Set(['ACTIVE', 'TRIALING', 'PAST_DUE']);

const toCard = (row: CardRow, defaultId: string | null): PaymentMethod => ({
  id: row.id,
  brand: row.brand,
  last4: row.last4,
  exp_month: row.exp_month,
  exp_year: row.exp_year,
  is_default: row.id === defaultId,
});

export async function listPaymentMethods(
  ctx: AppContext,
  actor: Actor,
  db: Db | Tx = ctx.db,
): Promise<PaymentMethodList> {
  const organizationId = actor.organization.id;
  const [rows, current] = await Promise.all([
    db
      .select()
      .from(paymentMethods)
      .where(
        and(eq(paymentMethods.organization_id, organizationId), isNull(paymentMethods.deleted_at)),
      )
      .orderBy(asc(paymentMethods.created_at), asc(paymentMethods.id)),
    findSubscription(db, organizationId, ctx.config.appProfile),
  ]);
  const defaultId = current?.subscription.default_payment_method_id ?? null;
  return {
    default_payment_method: rows.some((row) => row.id === defaultId) ? defaultId : null,
    results: rows.map((row) => toCard(row, defaultId)),
  };
}

/** A live card of the actor's organization, or 404 (another organization's card included). */
async function liveCard(tx: Tx, actor: Actor, id: string): Promise<CardRow> {
  const [row] = await tx
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.id, id),
        eq(paymentMethods.organization_id, actor.organization.id),
        isNull(paymentMethods.deleted_at),
      ),
    )
    .for('update');
  if (!row) throw notFound('No such card.');
  return row;
}

/** POST …/payment-methods/modification/: the card renewals charge from now on. */
export async function setDefaultPaymentMethod(
  ctx: AppContext,
  actor: Actor,
  paymentMethodId: string,
): Promise<PaymentMethodList> {
  await ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId: actor.organization.id });
    const card = await liveCard(tx, actor, paymentMethodId);
    const current = await findSubscription(tx, actor.organization.id, ctx.config.appProfile, {
      lock: true,
    });
    if (!current)
      throw conflict(
        ErrorCode.NOT_SUBSCRIBED,
        'Subscribe to a plan before choosing a default card.',
      );
    await tx
      .update(subscriptions)
      .set({ default_payment_method_id: card.id })
      .where(eq(subscriptions.id, current.subscription.id));
  });
  return listPaymentMethods(ctx, actor);
}

/**
 * DELETE …/payment-methods/modification/: forgets a card. The default card of a subscription
 * that still renews stays (choose another default first, or unsubscribe).
 */
export async function removePaymentMethod(
  ctx: AppContext,
  actor: Actor,
  paymentMethodId: string,
): Promise<PaymentMethodList> {
  const card = await ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId: actor.organization.id });
    const row = await liveCard(tx, actor, paymentMethodId);
    const current = await findSubscription(tx, actor.organization.id, ctx.config.appProfile, {
      lock: true,
    });
    const subscription = current?.subscription;
    if (subscription?.default_payment_method_id === row.id) {
      if (RENEWING.has(subscription.status) && !subscription.cancel_at_period_end)
        throw conflict(
          ErrorCode.DEFAULT_CARD_IN_USE,
          'This card pays for the subscription. Choose another default card first.',
        );
      await tx
        .update(subscriptions)
        .set({ default_payment_method_id: null })
        .where(eq(subscriptions.id, subscription.id));
    }
    await tx
      .update(paymentMethods)
      .set({ deleted_at: ctx.clock.now() })
      .where(eq(paymentMethods.id, row.id));
    return row;
  });
  // After the commit, and best effort: the portal never charges a deleted card, so a gateway
  // that fails to forget it now holds a harmless token.
  await ctx.payments.detachPaymentMethod(card.gateway_ref).catch(() => undefined);
  return listPaymentMethods(ctx, actor);
}
