import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMMON_PASSWORDS,
  PASSWORD_MIN_LENGTH,
  activationRequestSchema,
  emailSchema,
  passwordProblem,
  registrationRequestSchema,
} from './index.ts';

describe('password policy', () => {
  it('refuses anything shorter than 8 characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: PASSWORD_MIN_LENGTH - 1 }), (p) => {
        expect(passwordProblem(p)).toMatch(/at least 8/);
      }),
    );
  });

  it('accepts long passphrases with no composition rules', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z ]{12,64}$/), (p) => {
        fc.pre(!COMMON_PASSWORDS.has(p.toLowerCase()));
        expect(passwordProblem(p)).toBeNull();
      }),
    );
    expect(passwordProblem('a'.repeat(64))).toBeNull();
    expect(passwordProblem('x'.repeat(200))).toBeNull();
  });

  it('refuses common passwords whatever their case, and the e-mail itself', () => {
    expect(passwordProblem('Password123')).toMatch(/too common/);
    expect(passwordProblem('QWERTYUIOP')).toMatch(/too common/);
    expect(passwordProblem('jane.doe@example.com', ' Jane.Doe@example.com ')).toMatch(/e-mail/);
    expect(passwordProblem('jane.doe', 'jane.doe@example.com')).toMatch(/e-mail/);
  });
});

describe('schemas', () => {
  it('trims e-mails', () => {
    expect(emailSchema.parse('  a@example.com ')).toBe('a@example.com');
    expect(emailSchema.safeParse('not an email').success).toBe(false);
  });

  it('accepts only six digits as an activation code', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999 }), (n) => {
        const code = n.toString().padStart(6, '0');
        expect(activationRequestSchema.parse({ code })).toEqual({ code });
      }),
    );
    for (const bad of ['12345', '1234567', 'abcdef', '12 345']) {
      expect(activationRequestSchema.safeParse({ code: bad }).success).toBe(false);
    }
  });

  it('rejects unknown registration fields', () => {
    const result = registrationRequestSchema.safeParse({
      email: 'a@example.com',
      password1: 'x',
      password2: 'x',
      first_name: 'A',
      last_name: 'B',
      is_staff: true,
    });
    expect(result.success).toBe(false);
  });
});
