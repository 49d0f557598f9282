import { COUNTRY_CODES, TAX_ID_RULES, type CountryCode } from '@portolan/contract';

let names: Intl.DisplayNames | null | undefined;

/** A country's English name ("Germany"), or its code where the browser has no names. */
export function countryName(code: string): string {
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      names = null;
    }
  }
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The country select's options, by name. */
export function countryOptions(): { value: CountryCode; label: string }[] {
  return COUNTRY_CODES.map((value) => ({ value, label: countryName(value) })).sort((a, b) =>
    a.label.localeCompare(b.label, 'en'),
  );
}

/** The tax ID field's hint for a country: what the number is called there and how it is written. */
export function taxIdHint(country: CountryCode | null): { label: string; example: string | null } {
  const rule = country ? TAX_ID_RULES[country] : undefined;
  return rule
    ? { label: `Tax ID (${rule.name})`, example: rule.example }
    : { label: 'Tax ID', example: null };
}
