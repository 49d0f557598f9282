// Amounts of the API (integers of minor units) as people read and type them, in each currency's
// own format (features/billing and the organization's activity log).

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
