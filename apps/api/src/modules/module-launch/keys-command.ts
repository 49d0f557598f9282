import { RETIRED_KEY_PUBLISHED_MS, rotateSigningKey, type KeyContext } from './signing-keys.ts';

/**
 * `npm run keys:rotate`: a new key signs launch tokens from now on; the previous one is retired
 * and stays published until the tokens it signed have expired (RETIRED_KEY_PUBLISHED_MS), after
 * which the pruning job deletes it. Every instance signs with the new key at its next launch.
 */

export const KEYS_USAGE = [
  'Usage: npm run keys:rotate',
  '  makes a new key to sign module launch tokens and retires the current one',
].join('\n');

/** The command's arguments: none. Anything else is a mistake to show with the usage. */
export function parseKeysArgs(argv: string[]): { command: 'rotate' } | { error: string } {
  const [command, ...rest] = argv;
  if (command !== 'rotate') {
    return { error: command ? `Unknown command "${command}".` : 'Name a command.' };
  }
  return rest.length === 0 ? { command } : { error: '"rotate" takes no arguments.' };
}

/** Rotates; what to print (the new kid on the first line). */
export async function runKeysCommand(ctx: KeyContext): Promise<string[]> {
  const { kid, retired } = await rotateSigningKey(ctx);
  const minutes = Math.round(RETIRED_KEY_PUBLISHED_MS / 60_000);
  return [
    kid,
    `The key ${kid} now signs module launch tokens.`,
    retired.length > 0
      ? `Retired ${retired.join(', ')}: still published for ${minutes} minutes, until its last tokens expire.`
      : 'There was no current key to retire.',
  ];
}
