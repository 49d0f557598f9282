import type {
  BalanceService,
  FundPackage,
  GradeChangePreview,
  InvoiceDetail,
  LedgerEntry,
  OrganizationSubscription,
  Plan,
  PlanType,
  Subscription,
} from '@portolan/contract';
import { ada, json, publicConfig } from '../../test/api-mock';
import { ORG_ID, organization } from '../../test/tenant-fixtures';

/** Plans, subscriptions and cards as the billing API answers them, for the billing tests. */

export const BILLING = `/ps/organization-settings/${ORG_ID}/billing`;
export const SUBS = 'GET /v1/me/organizations/and/subscriptions/transit/';
export const PLANS = 'GET /v1/plans/service/config/transit/';
export const ORG = `GET /v1/organizations/${ORG_ID}/`;
export const CARDS = `GET /v1/organizations/${ORG_ID}/payment-methods/`;
export const CARD_CHANGE = `/v1/organizations/${ORG_ID}/payment-methods/modification/`;
export const PREVIEW = `POST /v1/organizations/${ORG_ID}/grade-changes/preview/`;
export const CHANGE = `POST /v1/organizations/${ORG_ID}/grade-changes/checkout/`;

const planIds: Record<PlanType, string> = {
  STANDARD: '5e000000-0000-4000-8000-000000000001',
  PROFESSIONAL: '5e000000-0000-4000-8000-000000000002',
  BUSINESS: '5e000000-0000-4000-8000-000000000003',
  CUSTOM: '5e000000-0000-4000-8000-000000000004',
};

function plan(type: PlanType, name: string, price: number, order: number, max: number): Plan {
  return {
    id: planIds[type],
    type,
    name,
    description: `${name} for growing teams`,
    criteria: [`${max} workspaces`, 'E-mail support'],
    price,
    currency: 'usd',
    period: 'month',
    trial_days: type === 'STANDARD' ? 14 : 0,
    order,
    self_serve: type !== 'CUSTOM',
    config:
      type === 'CUSTOM'
        ? { max_workspaces: -1, max_internal_users: null, max_external_users: -1 }
        : { max_workspaces: max, max_internal_users: max * 2, max_external_users: max * 10 },
    included_services: [],
  };
}

export const plans = [
  plan('STANDARD', 'Standard', 1900, 1, 3),
  plan('PROFESSIONAL', 'Professional', 4900, 2, 10),
  plan('BUSINESS', 'Business', 9900, 3, 50),
  plan('CUSTOM', 'Custom', 0, 4, 0),
];

export const planPage = () => ({ count: 4, next: null, previous: null, results: plans });

export function subscription(fields: Partial<Subscription> = {}): Subscription {
  const p = plans.find((x) => x.type === (fields.plan?.type ?? 'PROFESSIONAL'))!;
  return {
    id: '5b000000-0000-4000-8000-000000000001',
    status: 'ACTIVE',
    is_active: true,
    expired_in: '2099-04-01T12:00:00.000Z',
    current_period_start: '2099-03-01T12:00:00.000Z',
    amount: p.price,
    currency: 'usd',
    plan: { id: p.id, type: p.type, name: p.name, price: p.price, period: p.period },
    cancel_at_period_end: false,
    subscriber_id: ada.user_id,
    default_payment_method_id: null,
    retry_count: 0,
    next_retry_at: null,
    ...fields,
  };
}

export function entry(
  sub: Subscription | null,
  role: 'OWNER' | 'ADMIN' | 'STAFF' | 'CLIENT' = 'OWNER',
  orgId = ORG_ID,
): OrganizationSubscription {
  return {
    organization: { id: orgId, name: 'Demo Shipping Co.', role: organization(role).role },
    subscription: sub,
    limits: { max_workspaces: 10, max_internal_users: 20, max_external_users: -1 },
    usage: { clients: 5, internal_users: 20, external_users: 7 },
  };
}

export const subsPage = (...entries: OrganizationSubscription[]) => ({
  count: entries.length,
  next: null,
  previous: null,
  results: entries,
});

/** The handlers every billing page needs: config, user, organization, subscriptions, plans. */
export function billingHandlers(
  sub: Subscription | null,
  role: 'OWNER' | 'ADMIN' | 'STAFF' = 'OWNER',
) {
  return {
    'GET /v1/config': json(publicConfig),
    'GET /v1/rest-auth/user/': json(ada),
    [ORG]: json(organization(role)),
    [SUBS]: json(subsPage(entry(sub, role))),
    [PLANS]: json(planPage()),
  };
}

export function preview(
  type: PlanType,
  change: 'UPGRADE' | 'DOWNGRADE',
  warnClients: boolean,
): GradeChangePreview {
  const p = plans.find((x) => x.type === type)!;
  return {
    change,
    plan: p,
    invoice: {
      lines: [
        { description: 'Unused time on Professional', amount: -2450 },
        { description: `Remaining time on ${p.name}`, amount: p.price / 2 },
      ],
      subtotal: p.price / 2 - 2450,
      discounts: 0,
      applied_balance: 0,
      total: Math.max(0, p.price / 2 - 2450),
      currency: 'usd',
      next_payment_date: '2099-04-01T12:00:00.000Z',
    },
    resource_comparison: {
      clients: { current: 5, intent: p.config.max_workspaces, is_warned: warnClients },
      internal_users: { current: 4, intent: p.config.max_internal_users, is_warned: false },
      external_users: { current: 7, intent: p.config.max_external_users, is_warned: false },
    },
  };
}

// ---- the wallet: balance, its history, invoices, fund packages, services ---------------------

export const BALANCE = `GET /v1/organizations/${ORG_ID}/balance/`;
export const HISTORY = `GET /v1/organizations/${ORG_ID}/balance/history/`;
export const INVOICES = `GET /v1/organizations/${ORG_ID}/invoices/`;
export const invoicePdf = (id: string) => `GET /v1/organizations/${ORG_ID}/invoices/${id}/pdf/`;
export const FUND_PACKAGES = 'GET /v1/fund-packages/';
export const TOP_UP = `POST /v1/organizations/${ORG_ID}/balance/checkout/`;
export const SERVICES = 'GET /v1/plans/balance/config/transit/';

/** Any list as one page of the API's pagination. */
export const pageOf = <T>(results: T[], count = results.length) => ({
  count,
  next: null,
  previous: null,
  results,
});

export const balance = (available_balance: number) => ({ available_balance, currency: 'usd' });

export function ledgerEntry(n: number, fields: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: `1e000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type: 'charge',
    amount: -250,
    balance_after: 5250,
    currency: 'usd',
    description: 'Label printed',
    reference: '',
    service: null,
    quantity: null,
    source: 'member',
    user: { id: ada.user_id, email: ada.email, first_name: 'Ada', last_name: 'Lovelace' },
    refund_of: null,
    refunded_by: null,
    created: '2099-03-02T12:00:00.000Z',
    ...fields,
  };
}

export function invoice(n: number, fields: Partial<InvoiceDetail> = {}): InvoiceDetail {
  return {
    id: `1f000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    number: `INV-${String(n).padStart(6, '0')}`,
    kind: 'SUBSCRIPTION',
    status: 'PAID',
    description: 'Professional plan, monthly',
    lines: [{ description: 'Professional plan', amount: 4900 }],
    subtotal: 4900,
    total: 4900,
    currency: 'usd',
    created: '2099-03-01T12:00:00.000Z',
    ...fields,
  };
}

export function fundPackage(n: number, fields: Partial<FundPackage> = {}): FundPackage {
  return {
    id: `1a000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `Package ${n}`,
    description: '',
    price: 5000,
    credit: 5000,
    currency: 'usd',
    order: n,
    ...fields,
  };
}

export function balanceService(n: number, fields: Partial<BalanceService> = {}): BalanceService {
  return {
    id: `1b000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    key: `service-${n}`,
    name: `Service ${n}`,
    description: '',
    unit: 'lookup',
    unit_price: 5,
    currency: 'usd',
    included_in: [],
    ...fields,
  };
}
