/**
 * The organization's wallet (Billing II): a prepaid balance, kept as an append-only ledger that
 * fund packages top up and modules' services draw on. Zod-free: the web app's filters and labels
 * use the same lists as the server.
 */

/**
 * What moved the balance: a paid fund package (`top-up`), a service drawn by a module (`charge`),
 * a charge given back (`refund`), or a correction by the platform's operators (`adjustment`).
 */
export const LEDGER_ENTRY_TYPES = ['top-up', 'charge', 'refund', 'adjustment'] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

export const LEDGER_ENTRY_TYPE_LABELS: Record<LedgerEntryType, string> = {
  'top-up': 'Top-up',
  charge: 'Charge',
  refund: 'Refund',
  adjustment: 'Adjustment',
};

/**
 * Who or what caused an entry: a member (charge, refund), an API key acting for the member who
 * made it (a module's back end, issue 21 item 6), a payment (top-up), the platform.
 */
export const LEDGER_SOURCES = ['member', 'api_key', 'payment', 'system'] as const;
export type LedgerSource = (typeof LEDGER_SOURCES)[number];

/** The most units one charge call may draw (a module charges per action, not in bulk). */
export const MAX_CHARGE_QUANTITY = 10_000;

/** An invoice's number as printed: its organization's sequence, zero-padded (INV-000042). */
export const invoiceNumberText = (n: number): string => `INV-${String(n).padStart(6, '0')}`;
