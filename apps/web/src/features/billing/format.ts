import {
  isUnlimited,
  type CardBrand,
  type LimitResource,
  type PlanLimitKey,
  type SubscriptionStatus,
} from '@portolan/contract';

/** A currency's Intl format, or null for a code Intl does not know. */
function moneyFormat(code: string, signed: boolean): Intl.NumberFormat | null {
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      ...(signed && { signDisplay: 'exceptZero' as const }),
    });
  } catch {
    return null;
  }
}

function money(minor: number, currency: string, signed: boolean): string {
  const code = currency.toUpperCase();
  const format = moneyFormat(code, signed);
  if (!format) {
    // An unknown code: the amount as cents with the code, rather than nothing.
    const sign = signed && minor > 0 ? '+' : '';
    return `${sign}${(minor / 100).toFixed(2)} ${code}`;
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/**
 * Money of the API (an integer of minor units) in the currency's own format. The minor unit is
 * the currency's: cents for USD, none for JPY.
 */
export const formatMoney = (minor: number, currency: string): string =>
  money(minor, currency, false);

/** How many digits the currency's minor unit has: 2 for USD, 0 for JPY (2 when Intl does not know it). */
export function currencyDigits(currency: string): number {
  return moneyFormat(currency.toUpperCase(), false)?.resolvedOptions().maximumFractionDigits ?? 2;
}

/** Minor units (the API's integers) as the major units a member types: 1250 → 12.5 for USD. */
export const toMajorUnits = (minor: number, currency: string): number =>
  minor / 10 ** currencyDigits(currency);

/** What a member typed in major units as the API's minor units, rounded to a whole one. */
export const toMinorUnits = (major: number, currency: string): number =>
  Math.round(major * 10 ** currencyDigits(currency));

/** The currency's sign as the amounts show it ("$", "€"), else its code. */
export function currencySymbol(currency: string): string {
  const code = currency.toUpperCase();
  const part = moneyFormat(code, false)
    ?.formatToParts(0)
    .find((p) => p.type === 'currency');
  return part?.value ?? code;
}

/** A movement of the balance, its sign always shown: "+$50.00", "-$2.50" (zero has none). */
export const formatSignedMoney = (minor: number, currency: string): string =>
  money(minor, currency, true);

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
