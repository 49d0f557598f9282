/**
 * Money operations on the wallet (issue 22): auto top-up, spend caps, low-balance alerts, usage,
 * billing details and credit notes. Zod-free: the web app's forms and labels use the same rules
 * as the server (the schemas are in money-ops-schemas.ts).
 */

/** Three declined automatic top-ups in a row switch auto top-up off (and the OWNERs are told). */
export const AUTO_TOP_UP_MAX_FAILURES = 3;

/** An organization names at most this many low-balance thresholds. */
export const MAX_LOW_BALANCE_THRESHOLDS = 5;

/** The largest amount (minor units) a threshold or a cap may name: 10 million of the currency. */
export const MAX_MONEY_SETTING = 1_000_000_000;

/** How usage is totalled: per service, per workspace (`client`), per member (`user`). */
export const USAGE_GROUP_BY = ['service', 'client', 'user'] as const;
export type UsageGroupBy = (typeof USAGE_GROUP_BY)[number];

/** The longest window one usage query may total: a little over a year. */
export const USAGE_MAX_DAYS = 366;

/** The states of an automatic top-up: asked of the gateway, paid and credited, or declined. */
export const AUTO_TOP_UP_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type AutoTopUpStatus = (typeof AUTO_TOP_UP_STATUSES)[number];

/** A credit note's number as printed: its organization's own sequence (CN-000001). */
export const creditNoteNumberText = (n: number): string => `CN-${String(n).padStart(6, '0')}`;

/**
 * A spend period: the calendar month (UTC) holding `at`. Caps count what was charged in it, net
 * of refunds of charges of the same month.
 */
export function spendPeriodStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

// ---- countries and tax IDs -------------------------------------------------------------------

/** ISO 3166-1 alpha-2 codes; the web app names them with Intl.DisplayNames. */
export const COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ',
  'BA', 'BB', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS',
  'BT', 'BV', 'BW', 'BY', 'BZ', 'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN',
  'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ', 'EC', 'EE',
  'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA', 'GB', 'GD', 'GE', 'GF',
  'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS', 'GT', 'GU', 'GW', 'GY', 'HK', 'HM',
  'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT', 'JE', 'JM',
  'JO', 'JP', 'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ', 'LA', 'LB', 'LC',
  'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY', 'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK',
  'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ', 'NA',
  'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ', 'OM', 'PA', 'PE', 'PF', 'PG',
  'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW', 'PY', 'QA', 'RE', 'RO', 'RS', 'RU', 'RW',
  'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS',
  'ST', 'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TF', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO',
  'TR', 'TT', 'TV', 'TW', 'TZ', 'UA', 'UG', 'UM', 'US', 'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI',
  'VN', 'VU', 'WF', 'WS', 'YE', 'YT', 'ZA', 'ZM', 'ZW',
] as const; // prettier-ignore
export type CountryCode = (typeof COUNTRY_CODES)[number];
export const isCountryCode = (code: string): code is CountryCode =>
  (COUNTRY_CODES as readonly string[]).includes(code);

interface TaxIdRule {
  /** What the number is called there (the form's label and its error). */
  name: string;
  /** The number without spaces, dots or dashes, upper case. */
  pattern: RegExp;
  /** How it is written, for the error message. */
  example: string;
}

/**
 * The EU's VAT numbers (VIES formats: the country's prefix, Greece's is EL) and the common tax
 * IDs of other countries. A country without a rule takes any 2 to 30 letters and digits.
 */
export const TAX_ID_RULES: Partial<Record<CountryCode, TaxIdRule>> = {
  AT: { name: 'VAT number', pattern: /^ATU\d{8}$/, example: 'ATU12345678' },
  BE: { name: 'VAT number', pattern: /^BE[01]\d{9}$/, example: 'BE0123456789' },
  BG: { name: 'VAT number', pattern: /^BG\d{9,10}$/, example: 'BG123456789' },
  CY: { name: 'VAT number', pattern: /^CY\d{8}[A-Z]$/, example: 'CY12345678X' },
  CZ: { name: 'VAT number', pattern: /^CZ\d{8,10}$/, example: 'CZ12345678' },
  DE: { name: 'VAT number', pattern: /^DE\d{9}$/, example: 'DE123456789' },
  DK: { name: 'VAT number', pattern: /^DK\d{8}$/, example: 'DK12345678' },
  EE: { name: 'VAT number', pattern: /^EE\d{9}$/, example: 'EE123456789' },
  GR: { name: 'VAT number', pattern: /^EL\d{9}$/, example: 'EL123456789' },
  ES: { name: 'VAT number', pattern: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/, example: 'ESX1234567X' },
  FI: { name: 'VAT number', pattern: /^FI\d{8}$/, example: 'FI12345678' },
  FR: { name: 'VAT number', pattern: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/, example: 'FR12345678901' },
  HR: { name: 'VAT number', pattern: /^HR\d{11}$/, example: 'HR12345678901' },
  HU: { name: 'VAT number', pattern: /^HU\d{8}$/, example: 'HU12345678' },
  IE: { name: 'VAT number', pattern: /^IE\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/, example: 'IE1234567WA' },
  IT: { name: 'VAT number', pattern: /^IT\d{11}$/, example: 'IT12345678901' },
  LT: { name: 'VAT number', pattern: /^LT(\d{9}|\d{12})$/, example: 'LT123456789' },
  LU: { name: 'VAT number', pattern: /^LU\d{8}$/, example: 'LU12345678' },
  LV: { name: 'VAT number', pattern: /^LV\d{11}$/, example: 'LV12345678901' },
  MT: { name: 'VAT number', pattern: /^MT\d{8}$/, example: 'MT12345678' },
  NL: { name: 'VAT number', pattern: /^NL\d{9}B\d{2}$/, example: 'NL123456789B01' },
  PL: { name: 'VAT number', pattern: /^PL\d{10}$/, example: 'PL1234567890' },
  PT: { name: 'VAT number', pattern: /^PT\d{9}$/, example: 'PT123456789' },
  RO: { name: 'VAT number', pattern: /^RO\d{2,10}$/, example: 'RO1234567890' },
  SE: { name: 'VAT number', pattern: /^SE\d{10}01$/, example: 'SE123456789001' },
  SI: { name: 'VAT number', pattern: /^SI\d{8}$/, example: 'SI12345678' },
  SK: { name: 'VAT number', pattern: /^SK\d{10}$/, example: 'SK1234567890' },
  GB: { name: 'VAT number', pattern: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, example: 'GB123456789' },
  CH: { name: 'UID (VAT)', pattern: /^CHE\d{9}(MWST|TVA|IVA)?$/, example: 'CHE-123.456.789 MWST' },
  NO: { name: 'VAT number', pattern: /^(NO)?\d{9}(MVA)?$/, example: 'NO123456789MVA' },
  US: { name: 'EIN', pattern: /^\d{9}$/, example: '12-3456789' },
  CA: { name: 'Business number', pattern: /^\d{9}([A-Z]{2}\d{4})?$/, example: '123456789RT0001' },
  AU: { name: 'ABN', pattern: /^\d{11}$/, example: '12 345 678 901' },
  NZ: { name: 'GST number', pattern: /^\d{8,9}$/, example: '123-456-789' },
  IN: {
    name: 'GSTIN',
    pattern: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/,
    example: '22AAAAA0000A1Z5',
  },
  JP: { name: 'Corporate number', pattern: /^T?\d{13}$/, example: 'T1234567890123' },
  SG: { name: 'GST number', pattern: /^([A-Z]\d{8}[A-Z]|\d{9}[A-Z])$/, example: 'M12345678X' },
  BR: { name: 'CNPJ', pattern: /^\d{14}$/, example: '12.345.678/0001-95' },
  MX: { name: 'RFC', pattern: /^[A-Z&Ñ]{3,4}\d{6}[A-Z0-9]{3}$/, example: 'ABC123456T1A' },
  ZA: { name: 'VAT number', pattern: /^4\d{9}$/, example: '4123456789' },
  AE: { name: 'TRN', pattern: /^\d{15}$/, example: '123456789012345' },
  TR: { name: 'VKN', pattern: /^\d{10}$/, example: '1234567890' },
};

const GENERIC_TAX_ID = /^[A-Z0-9]{2,30}$/;

/** A tax ID as it is compared and stored: upper case, without spaces, dots, dashes or slashes. */
export const normalizeTaxId = (taxId: string): string =>
  taxId.toUpperCase().replace(/[\s.\-/]/g, '');

/**
 * Checks a tax ID's form for its country: the message to show, or null when it is well formed.
 * Only the form: whether the number is registered is the tax office's to say.
 */
export function taxIdProblem(country: CountryCode, taxId: string): string | null {
  const normalized = normalizeTaxId(taxId);
  const rule = TAX_ID_RULES[country];
  if (!rule)
    return GENERIC_TAX_ID.test(normalized)
      ? null
      : 'Give the tax ID in letters and digits (2 to 30).';
  return rule.pattern.test(normalized)
    ? null
    : `Not a valid ${rule.name} for this country. It is written like ${rule.example}.`;
}
