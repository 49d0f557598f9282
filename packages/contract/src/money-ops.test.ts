import { describe, expect, it } from 'vitest';
import { billingDetailsUpdateSchema } from './money-ops-schemas.ts';
import {
  COUNTRY_CODES,
  creditNoteNumberText,
  normalizeTaxId,
  TAX_ID_RULES,
  taxIdProblem,
  type CountryCode,
} from './money-ops.ts';

const rules = Object.entries(TAX_ID_RULES) as [CountryCode, { name: string; example: string }][];

describe('tax IDs (issue 22 item 6)', () => {
  it.each(rules)('%s: the example the message shows is well formed', (country, rule) => {
    expect(taxIdProblem(country, rule.example)).toBeNull();
  });

  it('every rule is for a known country', () => {
    for (const [country] of rules) expect(COUNTRY_CODES).toContain(country);
  });

  it('reads spaces, dots, dashes, slashes and lower case as the same number', () => {
    expect(normalizeTaxId(' de 123.456-789 ')).toBe('DE123456789');
    expect(normalizeTaxId('12.345.678/0001-95')).toBe('12345678000195');
    for (const written of ['de123456789', 'DE 123 456 789', 'DE-123.456.789'])
      expect(taxIdProblem('DE', written)).toBeNull();
    expect(taxIdProblem('CH', 'che-123.456.789 mwst')).toBeNull();
    expect(taxIdProblem('US', '12-3456789')).toBeNull();
  });

  it.each([
    ['DE', '123456789', 'no country prefix'],
    ['DE', 'DE12345678', 'a digit short'],
    ['DE', 'DE1234567890', 'a digit too many'],
    ['DE', 'FR12345678901', "another country's number"],
    ['GR', 'GR123456789', 'Greece writes EL'],
    ['AT', 'AT12345678', 'Austria needs the U'],
    ['NL', 'NL123456789A01', 'the B of a Dutch number'],
    ['FR', 'FR1234567890', 'too short'],
    ['US', '12-345678', 'an EIN a digit short'],
    ['GB', 'GB12345678', 'too short'],
    ['IN', '22AAAAA0000A1X5', 'a GSTIN without its Z'],
  ] as [CountryCode, string, string][])(
    '%s refuses %s (%s), naming the rule and its example',
    (country, taxId) => {
      const problem = taxIdProblem(country, taxId);
      expect(problem).toContain(TAX_ID_RULES[country]!.name);
      expect(problem).toContain(TAX_ID_RULES[country]!.example);
    },
  );

  it('a country without a rule takes 2 to 30 letters and digits', () => {
    expect(TAX_ID_RULES.KE).toBeUndefined();
    expect(taxIdProblem('KE', 'P051234567X')).toBeNull();
    expect(taxIdProblem('KE', 'P')).toMatch(/letters and digits/);
    expect(taxIdProblem('KE', '#!?')).toMatch(/letters and digits/);
    expect(taxIdProblem('KE', 'X'.repeat(31))).toMatch(/letters and digits/);
  });

  it('numbers credit notes CN-000001', () => {
    expect(creditNoteNumberText(1)).toBe('CN-000001');
    expect(creditNoteNumberText(1234567)).toBe('CN-1234567');
  });
});

describe('billingDetailsUpdateSchema', () => {
  const valid = {
    company_name: 'Acme GmbH',
    address: 'Hauptstraße 1\n10115 Berlin',
    country: 'DE',
    tax_id: 'DE 123 456 789',
  };
  const fieldsOf = (body: unknown) => {
    const parsed = billingDetailsUpdateSchema.safeParse(body);
    return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
  };

  it('takes a multi-line address and a tax ID written with spaces, or none', () => {
    expect(fieldsOf(valid)).toEqual([]);
    expect(fieldsOf({ ...valid, tax_id: null })).toEqual([]);
    expect(fieldsOf({ ...valid, tax_id: '' })).toEqual([]);
  });

  it('names the field of each mistake', () => {
    expect(fieldsOf({ ...valid, tax_id: 'DE12345' })).toEqual(['tax_id']);
    expect(fieldsOf({ ...valid, country: 'XX' })).toEqual(['country']);
    expect(fieldsOf({ ...valid, company_name: '  ' })).toEqual(['company_name']);
    expect(fieldsOf({ ...valid, company_name: 'Acme\nGmbH' })).toEqual(['company_name']);
    expect(fieldsOf({ ...valid, address: 'Street 1\u0000' })).toEqual(['address']);
    expect(fieldsOf({ ...valid, address: Array(11).fill('line').join('\n') })).toEqual(['address']);
    // One message a field: a tax ID too long is not also checked for its form.
    expect(fieldsOf({ ...valid, tax_id: `DE${'1'.repeat(39)}` })).toEqual(['tax_id']);
    expect(fieldsOf({ ...valid, extra: 1 })).toEqual(['']);
  });
});
