// Zod-free on purpose: the web app imports these rules without pulling zod into its bundle.

/** Password policy (NIST 800-63B style): length only, no composition rules, no common ones. */
export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the ceiling only bounds hashing work. */
export const PASSWORD_MAX_LENGTH = 256;
export const ACTIVATION_CODE_LENGTH = 6;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;

/** A short list of the most common passwords; the server refuses these (and the e-mail itself). */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '12345678910',
  'password',
  'password1',
  'password123',
  'passw0rd',
  'qwertyuiop',
  'qwerty123',
  'qwerty12',
  '11111111',
  '00000000',
  '88888888',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'welcome123',
  'abc12345',
  'abcd1234',
  'admin123',
  'administrator',
  'letmein1',
  'trustno1',
  'superman',
  'starwars',
  'whatever',
  'computer',
  'internet',
  'michelle',
  'jennifer',
  'password!',
  'p@ssw0rd',
  'p@ssword',
  '1q2w3e4r',
  '1qaz2wsx',
  'zaq12wsx',
  'asdfghjk',
  'asdf1234',
  'changeme',
  'changeme123',
  'qwertyui',
  'mustang1',
  'dragon12',
  'monkey12',
  'shadow12',
  'master12',
  'football1',
  'baseball1',
  'portolan',
  'portolan1',
]);

/** Returns an error message for a password the policy refuses, or null when it is acceptable. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered)) return 'This password is too common. Choose another one.';
  if (email) {
    const e = email.trim().toLowerCase();
    if (lowered === e || lowered === e.split('@')[0])
      return 'The password cannot be your e-mail address.';
  }
  return null;
}
