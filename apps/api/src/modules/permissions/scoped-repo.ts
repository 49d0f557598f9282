import type { Paginated, RuleListQuery } from '@portolan/contract';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { accessRules, customRoles } from '../../db/schema/index.ts';
import { pageFromRows, windowTotal } from '../../lib/pagination.ts';
import { usableIn, type Scope } from './scope.ts';

type Conn = Db | Tx;

/**
 * The reads access rules and custom roles share: a page of those usable in a scope (by name),
 * one of them, one locked. Each row comes with `parts`, its rule's permissions or its role's
 * rules, aggregated in the same query.
 */
export function scopedReads<Row, Parts>(
  table: typeof accessRules | typeof customRoles,
  parts: SQL<Parts>,
) {
  // Both tables have the same scope columns (db/schema/permissions.ts); the builder is typed on
  // one of them and the rows are given their own type back.
  const t = table as typeof accessRules;
  type Listed = { row: Row; parts: Parts; total: number };

  const count = async (db: Conn, scope: Scope): Promise<number> => {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(t)
      .where(usableIn(t, scope));
    return row?.n ?? 0;
  };

  return {
    /** One page, its total riding along (one query; a page past the end counts apart). */
    async page<T>(
      db: Conn,
      scope: Scope,
      query: RuleListQuery,
      toDto: (row: Row, parts: Parts) => T,
    ): Promise<Paginated<T>> {
      const rows = (await db
        .select({ row: t, parts, total: windowTotal })
        .from(t)
        .where(usableIn(t, scope))
        .orderBy(asc(sql`lower(${t.name})`), asc(t.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)) as Listed[];
      return pageFromRows(
        query,
        rows,
        (r) => toDto(r.row, r.parts),
        () => count(db, scope),
      );
    },

    /** A live one usable in the scope, with its parts. */
    async find(
      db: Conn,
      scope: Scope,
      id: string,
    ): Promise<{ row: Row; parts: Parts } | undefined> {
      const [found] = await db
        .select({ row: t, parts })
        .from(t)
        .where(and(eq(t.id, id), usableIn(t, scope)));
      return found as { row: Row; parts: Parts } | undefined;
    },

    /** Locks a live one usable in the scope for the rest of the transaction. */
    async lock(tx: Tx, scope: Scope, id: string): Promise<Row | undefined> {
      const [row] = await tx
        .select()
        .from(t)
        .where(and(eq(t.id, id), usableIn(t, scope)))
        .for('update');
      return row as Row | undefined;
    },
  };
}
