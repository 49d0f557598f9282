import { describe, expect, it } from 'vitest';
import { emailDomain, isEmailInDomains } from './email-domains.ts';

describe('e-mail domains', () => {
  it('reads the domain after the last @, lower-cased, without a trailing dot', () => {
    expect(emailDomain('Ada@Example.COM')).toBe('example.com');
    expect(emailDomain('"a@b"@corp.example.')).toBe('corp.example');
    expect(emailDomain('no-at-sign')).toBe('');
  });

  it('matches a listed domain exactly, in any case, and never a subdomain or a suffix', () => {
    const domains = ['portolan.example', 'corp.example'];
    expect(isEmailInDomains('ADA@Portolan.Example', domains)).toBe(true);
    expect(isEmailInDomains('ada@corp.example', domains)).toBe(true);
    expect(isEmailInDomains('ada@eu.portolan.example', domains)).toBe(false);
    expect(isEmailInDomains('ada@notportolan.example', domains)).toBe(false);
    expect(isEmailInDomains('ada@portolan.example.evil', domains)).toBe(false);
    expect(isEmailInDomains('ada@', domains)).toBe(false);
    expect(isEmailInDomains('ada@portolan.example', [])).toBe(false);
  });
});
