import type {
  AutoTopUp,
  BalanceAlerts,
  BalanceUsage,
  BillingDetails,
  CreditNote,
  SpendCap,
} from '@portolan/contract';
import { CLIENT_ID, ORG_ID } from '../../test/tenant-fixtures';

/** The money operations of issue 22 as the API answers them, for the billing tests. */

const ORG = `/v1/organizations/${ORG_ID}`;
export const AUTO_TOP_UP = `${ORG}/balance/auto-top-up/`;
export const ORG_CAP = `${ORG}/balance/spend-cap/`;
export const clientCap = (clientId = CLIENT_ID) => `/v1/clients/${clientId}/spend-cap/`;
export const ALERTS = `${ORG}/balance/alerts/`;
export const USAGE = `${ORG}/balance/usage/`;
export const DETAILS = `${ORG}/billing-details/`;
export const CREDIT_NOTES = `${ORG}/credit-notes/`;
export const creditNotePdf = (id: string) => `${ORG}/credit-notes/${id}/pdf/`;
export const CLIENTS = `GET ${ORG}/clients/`;

export function autoTopUp(fields: Partial<AutoTopUp> = {}): AutoTopUp {
  return {
    enabled: false,
    threshold: null,
    fund_package_id: null,
    consecutive_failures: 0,
    last_attempt: null,
    ...fields,
  };
}

export function spendCap(fields: Partial<SpendCap> = {}): SpendCap {
  return {
    monthly_limit: null,
    spent_this_period: 0,
    period_start: '2099-03-01T00:00:00.000Z',
    currency: 'usd',
    ...fields,
  };
}

export const alerts = (...thresholds: number[]): BalanceAlerts => ({ thresholds, currency: 'usd' });

export function usage(fields: Partial<BalanceUsage> = {}): BalanceUsage {
  return {
    from: '2099-03-01',
    to: '2099-03-03',
    group_by: 'service',
    currency: 'usd',
    total: 1275,
    groups: [
      { key: 'label', label: 'Shipping label', amount: 1000, quantity: 40, charges: 4 },
      { key: 'lookup', label: 'Address check', amount: 275, quantity: 55, charges: 2 },
    ],
    days: [
      { date: '2099-03-01', amount: 1000 },
      { date: '2099-03-02', amount: 0 },
      { date: '2099-03-03', amount: 275 },
    ],
    ...fields,
  };
}

export function billingDetails(fields: Partial<BillingDetails> = {}): BillingDetails {
  return { company_name: '', address: '', country: null, tax_id: null, updated: null, ...fields };
}

export function creditNote(n: number, fields: Partial<CreditNote> = {}): CreditNote {
  return {
    id: `1c000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    number: `CN-${String(n).padStart(6, '0')}`,
    invoice_id: '1f000000-0000-4000-8000-000000000001',
    invoice_number: 'INV-000001',
    amount: 2000,
    currency: 'usd',
    reason: 'Charged twice',
    lines: [{ description: 'Refund', amount: 2000 }],
    created: '2099-03-05T12:00:00.000Z',
    ...fields,
  };
}
