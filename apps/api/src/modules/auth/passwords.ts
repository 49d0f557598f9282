import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id of @node-rs/argon2 (a const enum, which erasable TypeScript cannot import). */
const ARGON2ID = 2;

/** argon2id with the OWASP-recommended minimum: m = 19456 KiB, t = 2, p = 1. */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * At most this many argon2 runs at once in this process; the others wait their turn. Each run
 * takes a core for its whole time and its memory cost (19 MiB) in RAM: more at once than the
 * process has cores only makes each slower, and the process larger, while the requests around
 * the hashes (their SQL, their answers) wait behind them for a core. Unlimited until the server
 * sets it (setHashConcurrency, from the cores of the machine).
 */
let slots = Infinity;
let running = 0;
const waiting: (() => void)[] = [];

export function setHashConcurrency(n: number): void {
  slots = Math.max(1, n);
}

async function limited<T>(run: () => Promise<T>): Promise<T> {
  if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await run();
  } finally {
    // The slot passes straight to the next in line (running stays the same), else is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export const hashPassword = (password: string) => limited(() => hash(password, OPTIONS));

// Verifying against this when the account does not exist keeps the timing of a wrong e-mail
// close to that of a wrong password.
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('portolan-timing-equaliser');
    const equaliser = await dummyHash;
    await limited(() => verify(equaliser, password)).catch(() => false);
    return false;
  }
  try {
    return await limited(() => verify(storedHash, password));
  } catch {
    return false;
  }
}
