import type {
  GradeChangePreview,
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
