import { and, count, desc, eq, gt, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { clientModules, clients, organizations, shareLinks, users } from '../../db/schema/index.ts';
import { rowsOf, windowTotal, type PageQuery } from '../../lib/pagination.ts';

export type ShareLinkRow = typeof shareLinks.$inferSelect;
export type CreatorFields = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
};

/** Live at `now`: not revoked, and without an expiry or with one still ahead. */
export const liveAt = (now: Date): SQL =>
  and(
    isNull(shareLinks.revoked_at),
    or(isNull(shareLinks.expires_at), gt(shareLinks.expires_at, now)),
  )!;

/** Whether the module is switched on in the workspace. */
export async function moduleEnabled(db: Db | Tx, clientId: string, module: string) {
  const [row] = await db
    .select({ enabled: clientModules.enabled })
    .from(clientModules)
    .where(and(eq(clientModules.client_id, clientId), eq(clientModules.module, module)))
    .limit(1);
  return row?.enabled === true;
}

export async function countLive(tx: Tx, clientId: string, now: Date): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(shareLinks)
    .where(and(eq(shareLinks.client_id, clientId), liveAt(now)));
  return row?.n ?? 0;
}

export async function insertLink(
  tx: Tx,
  values: {
    clientId: string;
    module: string;
    tokenHash: string;
    createdBy: string;
    expiresAt: Date | null;
    now: Date;
  },
): Promise<ShareLinkRow> {
  const [row] = await tx
    .insert(shareLinks)
    .values({
      client_id: values.clientId,
      module: values.module,
      token_hash: values.tokenHash,
      created_by: values.createdBy,
      expires_at: values.expiresAt,
      created_at: values.now,
      modified_at: values.now,
    })
    .returning();
  return row!;
}

const creatorColumns = {
  id: users.id,
  email: users.email,
  first_name: users.first_name,
  last_name: users.last_name,
};

/** A page of a workspace's links, newest first, with their creators; `onlyBy` keeps one creator's. */
export async function pageOfLinks(
  db: Db,
  clientId: string,
  onlyBy: string | null,
  query: PageQuery,
) {
  const where = and(
    eq(shareLinks.client_id, clientId),
    onlyBy === null ? undefined : eq(shareLinks.created_by, onlyBy),
  );
  const rows = await db
    .select({ link: shareLinks, creator: creatorColumns, total: windowTotal })
    .from(shareLinks)
    .leftJoin(users, eq(users.id, shareLinks.created_by))
    .where(where)
    .orderBy(desc(shareLinks.created_at), desc(shareLinks.id))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  const countAll = async () => {
    const [row] = await db.select({ n: count() }).from(shareLinks).where(where);
    return row?.n ?? 0;
  };
  return { rows, countAll };
}

/** One link of a workspace, locked for the revocation. */
export async function lockLink(tx: Tx, clientId: string, linkId: string) {
  const [row] = await tx
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.id, linkId), eq(shareLinks.client_id, clientId)))
    .for('update');
  return row;
}

export async function markRevoked(tx: Tx, linkId: string, now: Date): Promise<void> {
  await tx
    .update(shareLinks)
    .set({ revoked_at: now, modified_at: now })
    .where(and(eq(shareLinks.id, linkId), isNull(shareLinks.revoked_at)));
}

/**
 * The link a token opens, with what its view shows, in one query: live at `now`, of a live and
 * approved workspace of a live organization, with its module switched on. Undefined otherwise,
 * whichever of these failed.
 */
export async function findOpenable(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      id: shareLinks.id,
      module: shareLinks.module,
      created_at: shareLinks.created_at,
      expires_at: shareLinks.expires_at,
      last_opened_at: shareLinks.last_opened_at,
      workspace: { name: clients.name, logo: clients.logo },
      creator: { first_name: users.first_name, last_name: users.last_name },
    })
    .from(shareLinks)
    .innerJoin(
      clients,
      and(
        eq(clients.id, shareLinks.client_id),
        isNull(clients.deleted_at),
        eq(clients.active, true),
      ),
    )
    .innerJoin(
      organizations,
      and(eq(organizations.id, clients.organization_id), isNull(organizations.deleted_at)),
    )
    .innerJoin(
      clientModules,
      and(
        eq(clientModules.client_id, clients.id),
        eq(clientModules.module, shareLinks.module),
        eq(clientModules.enabled, true),
      ),
    )
    .leftJoin(users, eq(users.id, shareLinks.created_by))
    .where(and(eq(shareLinks.token_hash, tokenHash), liveAt(now)))
    .limit(1);
  return row;
}

/**
 * Notes an opening. At most once a minute per link, so a link opened by many people at once
 * does not turn every view into a write on one row.
 */
export async function touchOpened(db: Db, linkId: string, now: Date): Promise<void> {
  await db
    .update(shareLinks)
    .set({ last_opened_at: now })
    .where(
      and(
        eq(shareLinks.id, linkId),
        or(
          isNull(shareLinks.last_opened_at),
          lt(shareLinks.last_opened_at, new Date(now.getTime() - 60_000)),
        ),
      ),
    );
}
