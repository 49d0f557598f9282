import { MAX_MONEY_SETTING } from '@portolan/contract';
import { toMinorUnits } from './format';

/**
 * An amount a member types in major units (a threshold, a cap) as the API's minor units, or null
 * when the field is empty or not a number.
 */
export function minorOf(value: number | string, currency: string): number | null {
  if (value === '' || value === null) return null;
  const major = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(major) ? toMinorUnits(major, currency) : null;
}

/**
 * The client-side check of such an amount, with the server's wording (money-ops-schemas.ts
 * moneySetting): required, above zero unless `allowZero`, at most MAX_MONEY_SETTING.
 */
export function moneySettingProblem(
  value: number | string,
  currency: string,
  what: string,
  { allowZero = false }: { allowZero?: boolean } = {},
): string | null {
  const minor = minorOf(value, currency);
  if (minor === null) return `Give the ${what}.`;
  if (minor < 0) return `The ${what} cannot be negative.`;
  if (minor === 0 && !allowZero) return `The ${what} must be above zero.`;
  if (minor > MAX_MONEY_SETTING) return `The ${what} is too large.`;
  return null;
}
