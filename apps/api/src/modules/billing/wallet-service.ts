import {
  ErrorCode,
  isSubscriptionActive,
  type AppProfile,
  type BalanceService,
  type ChargeCreate,
  type ChargeResult,
  type Checkout,
  type FundPackage,
  type LedgerEntry,
} from '@portolan/contract';
import crypto from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { balanceServices, fundPackages, ledgerEntries } from '../../db/schema/index.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { formatMoney } from '../../lib/money.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { recordChangeEvents } from '../events/index.ts';
import { lockAccount } from './account.ts';
import { requestAutoTopUp } from './auto-top-up.ts';
import { alertLowBalance } from './balance-alerts.ts';
import { openHostedCheckout } from './checkout-service.ts';
import { callerOf } from './idempotency.ts';
import { appendEntry, findEntryDto } from './ledger.ts';
import { assertWithinCaps, countSpend } from './spending.ts';
import { findSubscription } from './subscription-repo.ts';

/**
 * The wallet (Billing II): fund packages bought through the gateway's checkout, the services
 * modules charge per unit, charges and their refunds. Every movement goes through the ledger
 * (ledger.ts) under the billing account's row lock.
 */

type FundPackageRow = typeof fundPackages.$inferSelect;
export type BalanceServiceRow = typeof balanceServices.$inferSelect;

export function toFundPackageDto(row: FundPackageRow): FundPackage {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price,
    credit: row.credit,
    currency: row.currency,
    order: row.sort_order,
  };
}

/** The enabled fund packages, in their order (a handful: one statement, paged by the caller). */
export async function listFundPackages(db: Db): Promise<FundPackageRow[]> {
  return db
    .select()
    .from(fundPackages)
    .where(eq(fundPackages.enabled, true))
    .orderBy(asc(fundPackages.sort_order), asc(fundPackages.id));
}

export function toBalanceServiceDto(row: BalanceServiceRow): BalanceService {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    unit: row.unit,
    unit_price: row.unit_price,
    currency: row.currency,
    included_in: row.included_in,
  };
}

/** The enabled services of an app profile that draw on the balance, in their order. */
export async function listBalanceServices(
  db: Db | Tx,
  app: AppProfile,
): Promise<BalanceServiceRow[]> {
  return db
    .select()
    .from(balanceServices)
    .where(and(eq(balanceServices.app_profile, app), eq(balanceServices.enabled, true)))
    .orderBy(asc(balanceServices.sort_order), asc(balanceServices.key));
}

/** POST …/balance/checkout/: the gateway's page to pay for a fund package. */
export async function startTopUpCheckout(
  ctx: AppContext,
  actor: Actor,
  fundPackageId: string,
): Promise<Checkout> {
  const [pkg] = await ctx.db
    .select()
    .from(fundPackages)
    .where(and(eq(fundPackages.id, fundPackageId), eq(fundPackages.enabled, true)));
  if (!pkg) throw fieldError('fund_package_id', 'No such fund package. Choose one of the list.');
  return openHostedCheckout(ctx, actor, {
    kind: 'TOP_UP',
    fundPackageId: pkg.id,
    credit: pkg.credit,
    amount: pkg.price,
    currency: pkg.currency,
    description: `Fund package ${pkg.name}: ${formatMoney(pkg.credit, pkg.currency)} of credit`,
  });
}

/** What a charge's Idempotency-Key was first sent with: the same key for another is a 409. */
const chargeFingerprint = (body: ChargeCreate) =>
  crypto
    .createHash('sha256')
    .update(
      JSON.stringify([
        body.service,
        body.quantity,
        body.reference ?? '',
        // Added later: a charge naming no workspace keeps the fingerprint it had before.
        ...(body.client_id ? [body.client_id] : []),
      ]),
    )
    .digest('hex');

/**
 * POST …/balance/charges/: draws `quantity` units of a service at its unit price, once per
 * caller and Idempotency-Key (the caller's replay answers the first entry, 200; another member's
 * request with the same key is a charge of its own). A service the organization's active
 * plan includes draws nothing. 402 INSUFFICIENT_BALANCE when the balance would go below zero.
 * Everything is decided under the account's row lock, so parallel charges cannot overdraw it.
 */
export async function chargeBalance(
  ctx: AppContext,
  actor: Actor,
  body: ChargeCreate,
  idempotencyKey: string,
): Promise<{ status: 200 | 201; body: ChargeResult }> {
  const organizationId = actor.organization.id;
  const fingerprint = chargeFingerprint(body);
  const caller = callerOf(actor);
  const clientId = body.client_id ?? null;
  return ctx.db.transaction(async (tx) => {
    // Organization, then the workspace the charge names (it must be one of the organization's,
    // and one an API key limited to some workspaces reaches), then the account.
    const inTenant = await lockTenant(tx, { organizationId, clientId: clientId ?? undefined });
    if (!inTenant || (clientId && actor.apiKey?.workspaceIds?.includes(clientId) === false))
      throw fieldError('client_id', 'No such workspace in this organization.');
    const [service] = await tx
      .select()
      .from(balanceServices)
      .where(
        and(
          eq(balanceServices.app_profile, ctx.config.appProfile),
          eq(balanceServices.key, body.service),
          eq(balanceServices.enabled, true),
        ),
      );
    if (!service) throw fieldError('service', `No such service: ${body.service}.`);

    const account = await lockAccount(tx, organizationId);
    const [earlier] = await tx
      .select()
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.organization_id, organizationId),
          eq(ledgerEntries.idempotency_caller, caller),
          eq(ledgerEntries.idempotency_key, idempotencyKey),
        ),
      );
    if (earlier) {
      if (earlier.request_fingerprint !== fingerprint)
        throw conflict(
          ErrorCode.IDEMPOTENCY_MISMATCH,
          'This Idempotency-Key was already used for another charge. Use a new key.',
        );
      return {
        status: 200,
        body: {
          entry: (await findEntryDto(tx, organizationId, earlier.id))!,
          included: false,
          amount: -earlier.amount,
          available_balance: account.available_balance,
          currency: account.currency,
        },
      };
    }

    if (await planIncludes(ctx, tx, organizationId, service)) {
      return {
        status: 200,
        body: {
          entry: null,
          included: true,
          amount: 0,
          available_balance: account.available_balance,
          currency: account.currency,
        },
      };
    }

    const amount = service.unit_price * body.quantity;
    const now = ctx.clock.now();
    await assertWithinCaps(tx, account, clientId, amount, now);
    const { row, account: after } = await appendEntry(tx, account, {
      type: 'charge',
      amount: -amount,
      description: `${service.name} × ${body.quantity}`,
      reference: body.reference ?? '',
      source: actor.apiKey ? 'api_key' : 'member',
      createdBy: actor.userId,
      serviceId: service.id,
      quantity: body.quantity,
      unitPrice: service.unit_price,
      idempotencyKey,
      idempotencyCaller: caller,
      requestFingerprint: fingerprint,
      clientId,
    });
    await countSpend(tx, account, clientId, amount, now);
    await recordChangeEvents(tx, organizationId, now, [
      {
        type: 'balance.charged',
        data: {
          entry_id: row.id,
          service: service.key,
          quantity: body.quantity,
          amount,
          currency: row.currency,
          available_balance: after.available_balance,
        },
      },
    ]);
    // What falling below a line sets off: the alerts, and the automatic top-up.
    await alertLowBalance(ctx, tx, after, account.available_balance, now);
    await requestAutoTopUp(ctx, tx, after, account.available_balance, now);
    return {
      status: 201,
      body: {
        entry: (await findEntryDto(tx, organizationId, row.id))!,
        included: false,
        amount,
        available_balance: after.available_balance,
        currency: after.currency,
      },
    };
  });
}

/** Whether the organization's active subscription is on a plan that includes the service. */
async function planIncludes(
  ctx: AppContext,
  tx: Tx,
  organizationId: string,
  service: BalanceServiceRow,
): Promise<boolean> {
  if (service.included_in.length === 0) return false;
  const found = await findSubscription(tx, organizationId, ctx.config.appProfile);
  if (!found) return false;
  const { subscription, plan } = found;
  const active = isSubscriptionActive(
    {
      is_active: subscription.is_active,
      expired_in: subscription.expired_in?.toISOString() ?? null,
      amount: subscription.amount,
    },
    ctx.clock.now(),
  );
  return active && service.included_in.includes(plan.type);
}

/**
 * POST …/balance/history/{entryId}/refund/: gives a charge back in full, once (a second refund
 * is a 409, also when two race: the ledger allows one refund per charge).
 */
export async function refundCharge(
  ctx: AppContext,
  actor: Actor,
  entryId: string,
): Promise<LedgerEntry> {
  const organizationId = actor.organization.id;
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    const account = await lockAccount(tx, organizationId);
    const [charge] = await tx
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.id, entryId), eq(ledgerEntries.organization_id, organizationId)));
    if (!charge) throw notFound('No such balance entry.');
    if (charge.type !== 'charge')
      throw conflict(ErrorCode.NOT_REFUNDABLE, 'Only a charge can be refunded.');
    const [refunded] = await tx
      .select({ id: ledgerEntries.id })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.refund_of, charge.id));
    if (refunded) throw conflict(ErrorCode.NOT_REFUNDABLE, 'This charge was refunded already.');
    const now = ctx.clock.now();
    const { row } = await appendEntry(tx, account, {
      type: 'refund',
      amount: -charge.amount,
      description: `Refund: ${charge.description}`,
      reference: charge.reference,
      source: 'member',
      createdBy: actor.userId,
      serviceId: charge.service_id,
      quantity: charge.quantity,
      unitPrice: charge.unit_price,
      refundOf: charge.id,
      clientId: charge.client_id,
    });
    // Given back, it no longer counts against the caps of its month.
    await countSpend(tx, account, charge.client_id, charge.amount, now, charge.created_at);
    return (await findEntryDto(tx, organizationId, row.id))!;
  });
}

/**
 * A correction by the platform's operators (positive or negative, never below zero), such as a
 * goodwill credit. No route: operators run it (the demo seed credits its organization with it).
 */
export async function adjustBalance(
  db: Db | Tx,
  organizationId: string,
  amount: number,
  reason: string,
): Promise<LedgerEntry> {
  return db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    const account = await lockAccount(tx, organizationId);
    const { row } = await appendEntry(tx, account, {
      type: 'adjustment',
      amount,
      description: reason,
      source: 'system',
    });
    return (await findEntryDto(tx, organizationId, row.id))!;
  });
}
