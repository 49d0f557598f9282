import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CONTROL_CHARACTERS_MESSAGE,
  PASSWORD_CHARACTERS_MESSAGE,
  activationRequestSchema,
  appLoginRequestSchema,
  googleLoginRequestSchema,
  googleStartQuerySchema,
  isSecretText,
  isSingleLineText,
  loginRequestSchema,
  passwordChangeSchema,
  passwordResetConfirmSchema,
  passwordResetIdentitySchema,
  passwordResetRequestSchema,
  refreshRequestSchema,
  registrationRequestSchema,
  secretText,
  singleLine,
  userExistsQuerySchema,
  userUpdateSchema,
} from './index.ts';

/** The oracle, written out by code point: C0, DEL, C1, and surrogates left unpaired. */
function hasControlOrLoneSurrogate(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xdfff)) return true;
  }
  return false;
}

const control = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
  .map((cp) => String.fromCodePoint(cp));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u));
/** Any text, with controls and stray surrogates mixed in often enough to matter. */
const anyText = fc
  .array(fc.oneof(fc.string({ unit: 'binary' }), control, loneSurrogate, fc.constant('😀')))
  .map((parts) => parts.join(''));
/** Printable one-line text: letters, digits, punctuation, accents and emoji; no edge spaces. */
const printable = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
  .map((s) => s.trim())
  .filter((s) => s.length > 0 && !hasControlOrLoneSurrogate(s));
const insertAt = (text: string, bad: string, at: number) => {
  const chars = [...text];
  const i = at % (chars.length + 1);
  return [...chars.slice(0, i), bad, ...chars.slice(i)].join('');
};

describe('singleLine()', () => {
  it('agrees with the code point oracle on any text', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(isSingleLineText(s)).toBe(!hasControlOrLoneSurrogate(s));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps printable text, trimmed, including emoji and accents', () => {
    fc.assert(
      fc.property(printable, (s) => {
        expect(singleLine().parse(` ${s} `)).toBe(s);
      }),
    );
    expect(singleLine().parse('Zoë 😀 O’Brien-Łukasz')).toBe('Zoë 😀 O’Brien-Łukasz');
  });

  it('refuses a control character or a lone surrogate anywhere inside, with one message', () => {
    fc.assert(
      fc.property(printable, fc.oneof(control, loneSurrogate), fc.nat(), (s, bad, at) => {
        const value = insertAt(`a${s}z`, bad, at + 1);
        fc.pre(value.trim() === value);
        const result = singleLine().min(1).max(150).safeParse(value);
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((i) => i.message)).toEqual([CONTROL_CHARACTERS_MESSAGE]);
      }),
    );
  });

  it('refuses NUL, DEL and U+0085, and a low surrogate without its pair', () => {
    for (const bad of ['\0', 'a\u0000b', 'a\u007fb', 'a\u0085b', 'a\ud800b', 'a\udc00', '😀'[1]!]) {
      expect(singleLine().safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('secretText()', () => {
  it('refuses exactly NUL and lone surrogates, and keeps the rest as sent', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const expected = ![...s].some(
          (ch) => ch === '\0' || (ch.codePointAt(0)! >= 0xd800 && ch.codePointAt(0)! <= 0xdfff),
        );
        expect(isSecretText(s)).toBe(expected);
        const result = secretText().safeParse(s);
        expect(result.success).toBe(expected);
        if (result.success) expect(result.data).toBe(s);
        else expect(result.error.issues[0]?.message).toBe(PASSWORD_CHARACTERS_MESSAGE);
      }),
      { numRuns: 500 },
    );
    expect(secretText().parse(' tab\there ')).toBe(' tab\there ');
  });
});

/** One valid value of every request schema; every string in it is a field the check covers. */
const requests: [string, z.ZodType, Record<string, string>][] = [
  [
    'registration',
    registrationRequestSchema,
    {
      email: 'a@example.com',
      password1: 'Correct horse battery 42',
      password2: 'Correct horse battery 42',
      first_name: 'Ann',
      last_name: 'Lee',
    },
  ],
  ['activation', activationRequestSchema, { code: '123456' }],
  ['app login', appLoginRequestSchema, { email: 'a@example.com', password: 'secret-pass' }],
  ['login', loginRequestSchema, { username: 'a@example.com', password: 'secret-pass' }],
  ['refresh', refreshRequestSchema, { token: 'a.b.c' }],
  [
    'user update',
    userUpdateSchema,
    { first_name: 'Ann', last_name: 'Lee', phone: '+1 555 0100', avatar: '/uploads/a.png' },
  ],
  ['password reset', passwordResetRequestSchema, { email: 'a@example.com' }],
  ['reset identity', passwordResetIdentitySchema, { code: '123456', token: 'a.b.c' }],
  ['reset confirm', passwordResetConfirmSchema, { token: 'a.b.c', password: 'Correct horse 42' }],
  [
    'password change',
    passwordChangeSchema,
    {
      old_password: 'old secret 1',
      new_password1: 'new secret 12',
      new_password2: 'new secret 12',
    },
  ],
  ['google login', googleLoginRequestSchema, { code: 'abc', state: 'xyz' }],
  ['google start query', googleStartQuerySchema, { path: '/dashboard' }],
  ['is-existed query', userExistsQuerySchema, { email: 'a@example.com' }],
];

describe('every text field of every request schema', () => {
  it.each(requests)('%s: refuses NUL in each field, naming it', (_name, schema, valid) => {
    expect(schema.safeParse(valid).success).toBe(true);
    for (const field of Object.keys(valid)) {
      const result = schema.safeParse({ ...valid, [field]: `${valid[field]}\u0000` });
      expect(result.success, field).toBe(false);
      expect(
        result.error?.issues.map((i) => i.path.join('.')),
        field,
      ).toEqual([field]);
      expect(result.error?.issues[0]?.message).toMatch(/NUL/);
    }
  });
});
