import { z } from 'zod';
import { PAGE_SIZE } from './constants.ts';
import { invoiceLineSchema } from './billing-schemas.ts';
import {
  AUTO_TOP_UP_STATUSES,
  COUNTRY_CODES,
  MAX_LOW_BALANCE_THRESHOLDS,
  MAX_MONEY_SETTING,
  USAGE_GROUP_BY,
  USAGE_MAX_DAYS,
  taxIdProblem,
} from './money-ops.ts';
import { pageQuery } from './organizations.ts';
import { paginated } from './pagination.ts';
import { singleLine } from './text.ts';

/**
 * Money operations of issue 22: the wallet's settings (auto top-up, spend caps, low-balance
 * alerts), usage, billing details and credit notes. Amounts are integers of minor units.
 */

const isoTime = z.iso.datetime({ offset: true });
const money = z.number().int();
/** An amount a member sets (a threshold, a cap): whole minor units, 0 up to MAX_MONEY_SETTING. */
const moneySetting = (what: string) =>
  z
    .number(`Give the ${what} as a whole number of cents.`)
    .int(`Give the ${what} as a whole number of cents.`)
    .min(0, `The ${what} cannot be negative.`)
    .max(MAX_MONEY_SETTING, `The ${what} is too large.`);

export const clientParamsSchema = z.strictObject({ clientId: z.uuid('Not a valid id.') });

// ---- auto top-up (item 1) --------------------------------------------------------------------

/** PUT …/balance/auto-top-up/: when enabled, the threshold and the package are required. */
export const autoTopUpUpdateSchema = z
  .strictObject({
    enabled: z.boolean('Say whether auto top-up is on.'),
    threshold: moneySetting('threshold').min(1, 'The threshold must be above zero.').nullable(),
    fund_package_id: z.uuid('Choose a fund package.').nullable(),
  })
  .superRefine((body, issues) => {
    if (!body.enabled) return;
    if (body.threshold === null)
      issues.addIssue({ code: 'custom', path: ['threshold'], message: 'Give a threshold.' });
    if (body.fund_package_id === null)
      issues.addIssue({
        code: 'custom',
        path: ['fund_package_id'],
        message: 'Choose the fund package to buy.',
      });
  });
export type AutoTopUpUpdate = z.infer<typeof autoTopUpUpdateSchema>;

/** An automatic top-up: asked of the gateway, then paid (credited) or declined. */
export const autoTopUpAttemptSchema = z.object({
  id: z.uuid(),
  status: z.enum(AUTO_TOP_UP_STATUSES),
  amount: money,
  credit: money,
  currency: z.string(),
  /** Why the gateway declined it (FAILED). */
  failure_reason: z.string().nullable(),
  created: isoTime,
  settled: isoTime.nullable(),
});
export type AutoTopUpAttempt = z.infer<typeof autoTopUpAttemptSchema>;

export const autoTopUpSchema = z.object({
  enabled: z.boolean(),
  threshold: money.nullable(),
  fund_package_id: z.uuid().nullable(),
  /** Declined top-ups in a row; AUTO_TOP_UP_MAX_FAILURES switch auto top-up off. */
  consecutive_failures: z.number().int(),
  /** The most recent automatic top-up, if any (PENDING while the gateway is asked). */
  last_attempt: autoTopUpAttemptSchema.nullable(),
});
export type AutoTopUp = z.infer<typeof autoTopUpSchema>;

// ---- spend caps (item 2) ---------------------------------------------------------------------

export const spendCapUpdateSchema = z.strictObject({
  /** null: no cap. */
  monthly_limit: moneySetting('monthly limit').nullable(),
});
export type SpendCapUpdate = z.infer<typeof spendCapUpdateSchema>;

export const spendCapSchema = z.object({
  monthly_limit: money.nullable(),
  /** Charged this calendar month (UTC), net of refunds of this month's charges. */
  spent_this_period: money,
  /** The first instant of the month (UTC). */
  period_start: isoTime,
  currency: z.string(),
});
export type SpendCap = z.infer<typeof spendCapSchema>;

// ---- low-balance alerts (item 3) -------------------------------------------------------------

export const balanceAlertsUpdateSchema = z.strictObject({
  thresholds: z
    .array(moneySetting('threshold').min(1, 'A threshold must be above zero.'), 'Give a list.')
    .max(MAX_LOW_BALANCE_THRESHOLDS, `Give at most ${MAX_LOW_BALANCE_THRESHOLDS} thresholds.`)
    .refine((list) => new Set(list).size === list.length, 'Give each threshold once.'),
});
export type BalanceAlertsUpdate = z.infer<typeof balanceAlertsUpdateSchema>;

/** The thresholds, highest first. */
export const balanceAlertsSchema = z.object({ thresholds: z.array(money), currency: z.string() });
export type BalanceAlerts = z.infer<typeof balanceAlertsSchema>;

// ---- usage (item 4) --------------------------------------------------------------------------

const day = z.iso.date('Give a date as YYYY-MM-DD.');

/**
 * GET …/balance/usage/: from and to are whole days (UTC, both included; by default the current
 * month to today), at most USAGE_MAX_DAYS apart; `format=csv` answers a CSV file.
 */
export const balanceUsageQuerySchema = z
  .strictObject({
    from: day.optional(),
    to: day.optional(),
    group_by: z.enum(USAGE_GROUP_BY, 'Group by service, client or user.').default('service'),
    format: z.enum(['json', 'csv'], 'Ask for json or csv.').default('json'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    path: ['to'],
    message: 'The end date must be on or after the start date.',
  })
  .refine(
    (q) =>
      !q.from ||
      !q.to ||
      Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`) <
        USAGE_MAX_DAYS * 86_400_000,
    { path: ['to'], message: `Ask for at most ${USAGE_MAX_DAYS} days at once.` },
  );
export type BalanceUsageQuery = z.infer<typeof balanceUsageQuerySchema>;

/** One group's total: `key` is the service key, the workspace or the member id (null: none). */
export const balanceUsageGroupSchema = z.object({
  key: z.string().nullable(),
  label: z.string(),
  /** Charged minus refunded, minor units. */
  amount: money,
  quantity: z.number().int(),
  charges: z.number().int(),
});
export type BalanceUsageGroup = z.infer<typeof balanceUsageGroupSchema>;

export const balanceUsageSchema = z.object({
  from: z.string(),
  to: z.string(),
  group_by: z.enum(USAGE_GROUP_BY),
  currency: z.string(),
  total: money,
  /** Largest first. */
  groups: z.array(balanceUsageGroupSchema),
  /** Every day of the window with its total (0 included), oldest first: the chart. */
  days: z.array(z.object({ date: z.string(), amount: money })),
});
export type BalanceUsage = z.infer<typeof balanceUsageSchema>;

// ---- billing details (item 6) ----------------------------------------------------------------

/** C0 and C1 controls but tab, line feed and carriage return; unpaired surrogates. */
// eslint-disable-next-line no-control-regex
const ADDRESS_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cs}]/u;
const MAX_ADDRESS_LINES = 10;

export const billingDetailsUpdateSchema = z
  .strictObject({
    company_name: singleLine()
      .min(1, 'Give the company name.')
      .max(200, 'Keep the company name under 200 characters.'),
    /** Street, city, postcode: several lines. */
    address: z
      .string('Give the address.')
      .trim()
      .min(1, 'Give the address.')
      .max(500, 'Keep the address under 500 characters.')
      // Several lines, so line breaks and tabs pass; NUL and the other controls cannot be stored.
      .refine((address) => !ADDRESS_FORBIDDEN.test(address), {
        message: 'Remove control characters (other than line breaks) and invalid Unicode.',
      })
      // What a document's "Billed to" block has room for.
      .refine((address) => address.split(/\r\n|\r|\n/).length <= MAX_ADDRESS_LINES, {
        message: `Write the address on at most ${MAX_ADDRESS_LINES} lines.`,
      }),
    country: z.enum(COUNTRY_CODES, 'Choose a country.'),
    /** null or empty: none. Checked in form for the country (EU VAT numbers and others). */
    tax_id: singleLine()
      .max(40, { message: 'Keep the tax ID under 40 characters.', abort: true })
      .nullable(),
  })
  .superRefine((body, issues) => {
    if (!body.tax_id) return;
    const problem = taxIdProblem(body.country, body.tax_id);
    if (problem) issues.addIssue({ code: 'custom', path: ['tax_id'], message: problem });
  });
export type BillingDetailsUpdate = z.infer<typeof billingDetailsUpdateSchema>;

/** Before any is saved: empty strings and nulls. The tax ID is answered normalized. */
export const billingDetailsSchema = z.object({
  company_name: z.string(),
  address: z.string(),
  country: z.string().nullable(),
  tax_id: z.string().nullable(),
  updated: isoTime.nullable(),
});
export type BillingDetails = z.infer<typeof billingDetailsSchema>;

// ---- credit notes (item 7) -------------------------------------------------------------------

export const creditNoteSchema = z.object({
  id: z.uuid(),
  /** As printed: CN-000001. */
  number: z.string(),
  invoice_id: z.uuid(),
  invoice_number: z.string(),
  amount: money,
  currency: z.string(),
  reason: z.string(),
  lines: z.array(invoiceLineSchema),
  created: isoTime,
});
export type CreditNote = z.infer<typeof creditNoteSchema>;
export const creditNotePageSchema = paginated(creditNoteSchema);
export const creditNoteListQuerySchema = pageQuery(PAGE_SIZE.invoices);
export const creditNoteParamsSchema = z.strictObject({
  orgId: z.uuid('Not a valid id.'),
  creditNoteId: z.uuid('Not a valid id.'),
});

/** POST /v1/admin/invoices/{invoiceId}/refunds/ (operators): all that is left, or `amount`. */
export const invoiceRefundSchema = z.strictObject({
  amount: z
    .number('Give the amount as a whole number of cents.')
    .int('Give the amount as a whole number of cents.')
    .min(1, 'Refund at least one cent.')
    .optional(),
  reason: singleLine().min(1, 'Say why the money is given back.').max(200),
});
export type InvoiceRefund = z.infer<typeof invoiceRefundSchema>;
export const adminInvoiceParamsSchema = z.strictObject({
  invoiceId: z.uuid('Not a valid id.'),
});
