import { z } from 'zod';
import { PAGE_SIZE, PLAN_TYPES } from './constants.ts';
import { INVOICE_KINDS } from './billing.ts';
import { invoiceLineSchema } from './billing-schemas.ts';
import { pageQuery } from './organizations.ts';
import { paginated } from './pagination.ts';
import { singleLine } from './text.ts';
import { LEDGER_ENTRY_TYPES, LEDGER_SOURCES, MAX_CHARGE_QUANTITY } from './wallet.ts';

/**
 * Billing II calls of spec §7: fund packages, the balance and its history, the services that
 * draw on it, charges, and invoices. Money is an integer of minor units with its currency.
 */

const isoTime = z.iso.datetime({ offset: true });
const money = z.number().int();

// ---- fund packages ---------------------------------------------------------------------------

/** A package of prepaid credit: pay `price`, get `credit` on the balance. */
export const fundPackageSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  price: money,
  credit: money,
  currency: z.string(),
  order: z.number().int(),
});
export type FundPackage = z.infer<typeof fundPackageSchema>;
export const fundPackagePageSchema = paginated(fundPackageSchema);
/** GET /v1/fund-packages/: limit 10, page 1 (spec §7). */
export const fundPackageListQuerySchema = pageQuery(PAGE_SIZE.fundPackages);

/** POST …/balance/checkout/: the package to buy. */
export const fundPackageChoiceSchema = z.strictObject({
  fund_package_id: z.uuid('Choose a fund package.'),
});

/** POST …/balance/top-ups/: a fund package paid at once with one of the organization's cards. */
export const cardTopUpSchema = z.strictObject({
  fund_package_id: z.uuid('Choose a fund package.'),
  payment_method_id: z.uuid('Choose a card.'),
});
export type CardTopUp = z.infer<typeof cardTopUpSchema>;

// ---- services that draw on the balance -------------------------------------------------------

/** A service a module charges per unit, and the plans that include it at no charge. */
export const balanceServiceSchema = z.object({
  id: z.uuid(),
  key: z.string(),
  name: z.string(),
  description: z.string(),
  /** What one unit is ("label", "lookup"). */
  unit: z.string(),
  unit_price: money,
  currency: z.string(),
  /** Organizations on these plans use the service without drawing on their balance. */
  included_in: z.array(z.enum(PLAN_TYPES)),
});
export type BalanceService = z.infer<typeof balanceServiceSchema>;
export const balanceServicePageSchema = paginated(balanceServiceSchema);
export const balanceServiceQuerySchema = pageQuery(PAGE_SIZE.planConfigs);

// ---- balance and ledger ----------------------------------------------------------------------

export const balanceSchema = z.object({
  /** Minor units; never below zero. */
  available_balance: money,
  currency: z.string(),
});
export type Balance = z.infer<typeof balanceSchema>;

const ledgerUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});

/** One movement of the balance, as the history lists it (newest first). */
export const ledgerEntrySchema = z.object({
  id: z.uuid(),
  type: z.enum(LEDGER_ENTRY_TYPES),
  /** Signed: a top-up or refund adds, a charge takes away. */
  amount: money,
  /** The balance right after this entry. */
  balance_after: money,
  currency: z.string(),
  description: z.string(),
  /** What it refers to: the invoice of a top-up, the caller's reference of a charge, … */
  reference: z.string(),
  /** The service of a charge (or of the charge a refund gives back). */
  service: z.object({ key: z.string(), name: z.string() }).nullable(),
  quantity: z.number().int().nullable(),
  /** Who or what caused it: a member (with who), a payment, or the platform. */
  source: z.enum(LEDGER_SOURCES),
  user: ledgerUserSchema.nullable(),
  /** For a refund, the charge it gives back; for a charge, its refund when there is one. */
  refund_of: z.uuid().nullable(),
  refunded_by: z.uuid().nullable(),
  created: isoTime,
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export const ledgerEntryPageSchema = paginated(ledgerEntrySchema);

/** A calendar day, YYYY-MM-DD (UTC). */
const day = z.iso.date('Give a date as YYYY-MM-DD.');

/** GET …/balance/history: page, limit, from_date and to_date (days, inclusive, UTC), type. */
export const balanceHistoryQuerySchema = pageQuery(PAGE_SIZE.invoices)
  .extend({
    from_date: day.optional(),
    to_date: day.optional(),
    type: z.enum(LEDGER_ENTRY_TYPES).optional(),
  })
  .refine((q) => !q.from_date || !q.to_date || q.from_date <= q.to_date, {
    path: ['to_date'],
    message: 'The end date must be on or after the start date.',
  });
export type BalanceHistoryQuery = z.infer<typeof balanceHistoryQuerySchema>;

// ---- charges ---------------------------------------------------------------------------------

/** POST …/balance/charges/ (Idempotency-Key required): draw a service × quantity. */
export const chargeCreateSchema = z.strictObject({
  service: singleLine().min(1, 'Name the service.').max(64),
  quantity: z
    .number()
    .int('Give a whole number of units.')
    .min(1, 'Charge at least one unit.')
    .max(MAX_CHARGE_QUANTITY, `Charge at most ${MAX_CHARGE_QUANTITY} units at once.`),
  /** The caller's own reference (a shipment, a label), shown in the history. */
  reference: singleLine().max(200).optional(),
  /**
   * The workspace the charge was for (issue 22 item 4): totalled by the usage report and counted
   * against the workspace's spend cap. One of the organization's workspaces.
   */
  client_id: z.uuid('Not a valid id.').optional(),
});
export type ChargeCreate = z.infer<typeof chargeCreateSchema>;

export const chargeResultSchema = z.object({
  /** The ledger entry; null when the organization's plan includes the service (nothing drawn). */
  entry: ledgerEntrySchema.nullable(),
  included: z.boolean(),
  amount: money,
  available_balance: money,
  currency: z.string(),
});
export type ChargeResult = z.infer<typeof chargeResultSchema>;

export const ledgerEntryParamsSchema = z.strictObject({
  orgId: z.uuid('Not a valid id.'),
  entryId: z.uuid('Not a valid id.'),
});

// ---- invoices --------------------------------------------------------------------------------

/** An invoice as the history lists it: every payment, numbered per organization. */
export const invoiceDetailSchema = z.object({
  id: z.uuid(),
  /** As printed: INV-000042. */
  number: z.string(),
  kind: z.enum(INVOICE_KINDS),
  status: z.enum(['PAID', 'FAILED']),
  description: z.string(),
  lines: z.array(invoiceLineSchema),
  subtotal: money,
  total: money,
  currency: z.string(),
  created: isoTime,
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;
export const invoicePageSchema = paginated(invoiceDetailSchema);
/** GET …/invoices/: limit 10, page 1 (spec §7). */
export const invoiceListQuerySchema = pageQuery(PAGE_SIZE.invoices);
export const invoiceParamsSchema = z.strictObject({
  orgId: z.uuid('Not a valid id.'),
  invoiceId: z.uuid('Not a valid id.'),
});
