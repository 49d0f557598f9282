import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { platformAdmins, users } from '../../db/schema/index.ts';
import { findUserByEmail } from '../users/index.ts';

/**
 * Platform administrators: a role of the platform itself, not of an organization. They manage
 * the release notes. Only the command line grants and revokes it (`npm run admin -- …`).
 */

export class UnknownAccountError extends Error {
  readonly email: string;
  constructor(email: string) {
    super(`No account uses the e-mail ${email}. The person must sign up first.`);
    this.email = email;
  }
}

async function accountOf(db: Db | Tx, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new UnknownAccountError(email.trim());
  return user;
}

/** Makes the account with this e-mail a platform administrator; `granted` is false if it was one. */
export async function grantPlatformAdmin(db: Db | Tx, email: string) {
  const user = await accountOf(db, email);
  const added = await db
    .insert(platformAdmins)
    .values({ user_id: user.id })
    .onConflictDoNothing()
    .returning({ user_id: platformAdmins.user_id });
  return { user, granted: added.length > 0 };
}

/** Takes the role away; `revoked` is false if the account did not have it. */
export async function revokePlatformAdmin(db: Db | Tx, email: string) {
  const user = await accountOf(db, email);
  const removed = await db
    .delete(platformAdmins)
    .where(eq(platformAdmins.user_id, user.id))
    .returning({ user_id: platformAdmins.user_id });
  return { user, revoked: removed.length > 0 };
}

/** Every platform administrator, in the order they were granted. */
export async function listPlatformAdmins(db: Db | Tx) {
  return db
    .select({
      email: users.email,
      first_name: users.first_name,
      last_name: users.last_name,
      granted_at: platformAdmins.granted_at,
    })
    .from(platformAdmins)
    .innerJoin(users, eq(users.id, platformAdmins.user_id))
    .orderBy(asc(platformAdmins.granted_at), asc(users.email));
}

// ---- the command line ------------------------------------------------------------------------

export const ADMIN_USAGE = [
  'Usage: npm run admin -- <command>',
  '  grant <email>    make the account with this e-mail a platform administrator',
  '                   (platform administrators manage the release notes)',
  '  revoke <email>   take the role away again',
  '  list             list the platform administrators',
].join('\n');

export type AdminCommand = { command: 'grant' | 'revoke'; email: string } | { command: 'list' };

/** The command of `npm run admin -- …`, or the reason it is not one (print it with the usage). */
export function parseAdminArgs(argv: string[]): AdminCommand | { error: string } {
  const [command, ...rest] = argv;
  if (command === 'list') {
    return rest.length === 0 ? { command } : { error: '"list" takes no arguments.' };
  }
  if (command === 'grant' || command === 'revoke') {
    const email = rest[0]?.trim();
    if (rest.length !== 1 || !email) return { error: `"${command}" takes one e-mail address.` };
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) return { error: `"${email}" is not an e-mail address.` };
    return { command, email };
  }
  return { error: command ? `Unknown command "${command}".` : 'Name a command.' };
}

const nameOf = (u: { first_name: string; last_name: string; email: string }) =>
  [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email;

/** Runs a parsed command; what to print, and the exit code (1 for an unknown e-mail). */
export async function runAdminCommand(
  db: Db,
  cmd: AdminCommand,
): Promise<{ code: number; lines: string[] }> {
  try {
    if (cmd.command === 'list') {
      const admins = await listPlatformAdmins(db);
      if (admins.length === 0) return { code: 0, lines: ['No platform administrators yet.'] };
      return {
        code: 0,
        lines: [
          `Platform administrators (${admins.length}):`,
          ...admins.map(
            (a) => `  ${a.email}  ${nameOf(a)}  since ${a.granted_at.toISOString().slice(0, 10)}`,
          ),
        ],
      };
    }
    if (cmd.command === 'grant') {
      const { user, granted } = await grantPlatformAdmin(db, cmd.email);
      return {
        code: 0,
        lines: [
          granted
            ? `${user.email} (${nameOf(user)}) is now a platform administrator.`
            : `${user.email} (${nameOf(user)}) already is a platform administrator; nothing changed.`,
        ],
      };
    }
    const { user, revoked } = await revokePlatformAdmin(db, cmd.email);
    return {
      code: 0,
      lines: [
        revoked
          ? `${user.email} (${nameOf(user)}) is no longer a platform administrator.`
          : `${user.email} (${nameOf(user)}) was not a platform administrator; nothing changed.`,
      ],
    };
  } catch (err) {
    if (err instanceof UnknownAccountError) return { code: 1, lines: [err.message] };
    throw err;
  }
}
