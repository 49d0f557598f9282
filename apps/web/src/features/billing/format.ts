import {
  isUnlimited,
  type CardBrand,
  type LimitResource,
  type PlanLimitKey,
  type SubscriptionStatus,
} from '@portolan/contract';

// Money formats live in lib/ (the organization's activity log shows amounts too).
export {
  currencyDigits,
  currencySymbol,
  formatMoney,
  formatSignedMoney,
  toMajorUnits,
  toMinorUnits,
} from '../../lib/money';

export const perPeriod = (period: 'month' | 'year') => (period === 'month' ? 'month' : 'year');

export const LIMIT_LABELS: Record<PlanLimitKey, string> = {
  max_workspaces: 'Workspaces',
  max_internal_users: 'Internal users',
  max_external_users: 'External users',
};

/** The resources of a plan change's comparison, as counted things in a sentence. */
export const RESOURCE_NOUNS: Record<LimitResource, string> = {
  clients: 'workspaces',
  internal_users: 'internal users',
  external_users: 'external users',
};

export const RESOURCE_LABELS: Record<LimitResource, string> = {
  clients: 'Workspaces',
  internal_users: 'Internal users',
  external_users: 'External users',
};

export const limitText = (limit: number | null | undefined) =>
  isUnlimited(limit) ? 'Unlimited' : String(limit);

export const STATUS_LABELS: Record<SubscriptionStatus, { label: string; color: string }> = {
  TRIALING: { label: 'Trial', color: 'blue' },
  ACTIVE: { label: 'Active', color: 'teal' },
  PAST_DUE: { label: 'Past due', color: 'orange' },
  CANCELED: { label: 'Canceled', color: 'gray' },
  EXPIRED: { label: 'Expired', color: 'red' },
};

export const BRAND_NAMES: Record<CardBrand, string> = {
  amex: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
  unknown: 'Card',
};

/** "Visa ending in 4242, expires 12/2030": what a card is called, to screen readers too. */
export function cardName(card: {
  brand: CardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
}): string {
  const month = String(card.exp_month).padStart(2, '0');
  return `${BRAND_NAMES[card.brand] ?? 'Card'} ending in ${card.last4}, expires ${month}/${card.exp_year}`;
}
