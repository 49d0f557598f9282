import {
  rolesWith,
  type InvitationSuggestion,
  type InvitationSuggestionQuery,
} from '@portolan/contract';
import { and, asc, eq, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clientMembers, clients, organizationMembers, users } from '../../db/schema/index.ts';
import type { Actor } from '../access/index.ts';

/** `%key%` for ILIKE, the key's own wildcards (and the escape character) taken literally. */
const containing = (key: string) => `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Whom the caller might invite to their workspace (REFERENCE "Invitations"): accepted members of
 * the other live workspaces the caller administers (holds `client.update` in them, or
 * `organization.clients.manage` in their organization: OWNER or ADMIN), not yet in this workspace in any status,
 * matched by `key` on e-mail and names, by e-mail. One query whatever the numbers.
 */
export async function suggestInvitees(
  db: Db,
  actor: Actor,
  query: InvitationSuggestionQuery,
): Promise<InvitationSuggestion[]> {
  const clientId = actor.client!.id;
  const theirs = clientMembers;
  const administered = sql`(
    exists (select 1 from ${clientMembers} mine where mine.client_id = ${clients.id}
      and mine.user_id = ${actor.userId} and mine.status = 'MEMBER' and mine.role in ${[...rolesWith('client.update')]})
    or exists (select 1 from ${organizationMembers} om
      where om.organization_id = ${clients.organization_id} and om.user_id = ${actor.userId}
        and om.status = 'MEMBER' and om.role in ${[...rolesWith('organization.clients.manage')]}))`;
  const knownThere = sql`exists (select 1 from ${theirs}
    inner join ${clients} on ${clients.id} = ${theirs.client_id} and ${clients.deleted_at} is null
    where ${theirs.user_id} = ${users.id} and ${theirs.status} = 'MEMBER'
      and ${theirs.client_id} <> ${clientId} and ${administered})`;
  const alreadyHere = sql`exists (select 1 from ${clientMembers} here
    where here.client_id = ${clientId} and here.user_id = ${users.id})`;
  const key = query.key ? containing(query.key) : null;
  const matches: SQL | undefined = key
    ? or(
        sql`${users.email} ilike ${key}`,
        sql`${users.first_name} ilike ${key}`,
        sql`${users.last_name} ilike ${key}`,
        sql`(${users.first_name} || ' ' || ${users.last_name}) ilike ${key}`,
      )
    : undefined;
  return db
    .select({
      id: users.id,
      email: users.email,
      first_name: users.first_name,
      last_name: users.last_name,
      avatar: users.avatar,
    })
    .from(users)
    .where(
      and(
        isNull(users.deleted_at),
        eq(users.enabled, true),
        ne(users.id, actor.userId),
        knownThere,
        sql`not ${alreadyHere}`,
        matches,
      ),
    )
    .orderBy(asc(sql`lower(${users.email})`))
    .limit(query.limit);
}
