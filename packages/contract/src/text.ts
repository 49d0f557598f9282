import { z } from 'zod';

/**
 * Text fields of requests. PostgreSQL refuses NUL in text (a 500 if it got that far) and an
 * unpaired UTF-16 surrogate cannot be stored as UTF-8 at all, so neither must pass validation;
 * control characters have no place in a one-line field either.
 */

/** C0 and C1 controls (U+0000–U+001F, U+007F–U+009F) and unpaired surrogates. */
const CONTROL_OR_LONE_SURROGATE = /[\p{Cc}\p{Cs}]/u;
/** Unpaired surrogates (a pair is one astral code point under the `u` flag, so it never matches). */
const LONE_SURROGATE = /\p{Cs}/u;

export const CONTROL_CHARACTERS_MESSAGE =
  'Remove control characters (such as line breaks, tabs or NUL) and invalid Unicode.';
export const PASSWORD_CHARACTERS_MESSAGE =
  'A password cannot contain the NUL character or invalid Unicode.';

/** True when a one-line field may hold this text: no control character, no unpaired surrogate. */
export function isSingleLineText(value: string): boolean {
  return !CONTROL_OR_LONE_SURROGATE.test(value);
}

/** True when a secret (a password) may hold this text: anything but NUL and unpaired surrogates. */
export function isSecretText(value: string): boolean {
  return !value.includes('\0') && !LONE_SURROGATE.test(value);
}

/**
 * A one-line text field: trimmed, then refused with CONTROL_CHARACTERS_MESSAGE if it holds a
 * control character or an unpaired surrogate. Chain length and format checks after it; they do
 * not run once this one fails, so the field gets one message.
 */
export function singleLine() {
  return z
    .string()
    .trim()
    .refine(isSingleLineText, { message: CONTROL_CHARACTERS_MESSAGE, abort: true });
}

/**
 * A secret typed by a person (a password): kept exactly as sent (no trimming), refused only for
 * NUL or an unpaired surrogate, which no password can hold.
 */
export function secretText() {
  return z.string().refine(isSecretText, { message: PASSWORD_CHARACTERS_MESSAGE, abort: true });
}
