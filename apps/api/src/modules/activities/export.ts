import {
  ACTIVITY_EXPORT_COLUMNS,
  type ActivityExportFormat,
  type ActivityExportQuery,
} from '@portolan/contract';
import { Readable } from 'node:stream';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { escapeLiteral } from 'pg';
import type { Database, Db } from '../../db/client.ts';
import { copyTextLines } from '../../db/copy-binary.ts';
import { activities, users } from '../../db/schema/index.ts';
import { activityFilter } from './service.ts';

/**
 * The audit export: an organization's activities as CSV or JSON Lines, streamed. Rows are read
 * in batches by keyset (created_at, id) — never an OFFSET, never the whole set in memory — and
 * written as they come, so a million activities cost the memory of one batch.
 */

/** Rows read per query (the keyset path). */
export const EXPORT_BATCH = 1000;

export const EXPORT_CONTENT_TYPES: Record<ActivityExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

const LINE_END: Record<ActivityExportFormat, string> = { csv: '\r\n', jsonl: '\n' };

/** How many activities the export will hold (sent ahead, so the browser can show progress). */
export async function countExport(
  db: Db,
  organizationId: string,
  query: ActivityExportQuery,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(activities)
    .leftJoin(users, eq(users.id, activities.user_id))
    .where(activityFilter(organizationId, query));
  return row?.n ?? 0;
}

/**
 * The export's columns (ACTIVITY_EXPORT_COLUMNS, in order) as text, computed by the database.
 * Lines are formatted there too, so both engines write the same bytes and the server never
 * makes an object per row.
 */
const COLUMN_SQL: Record<(typeof ACTIVITY_EXPORT_COLUMNS)[number], SQL> = {
  id: sql`${activities.id}::text`,
  created: sql`to_char(${activities.created_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  action: sql`${activities.action}`,
  user_email: sql`coalesce(${users.email}, '')`,
  user_name: sql`concat_ws(' ', nullif(${users.first_name}, ''), nullif(${users.last_name}, ''))`,
  object_type: sql`coalesce(${activities.object_type}, '')`,
  object_id: sql`coalesce(${activities.object_id}::text, '')`,
  workspace: sql`case when jsonb_typeof(${activities.data} -> 'client_name') = 'string' then ${activities.data} ->> 'client_name' else '' end`,
  module: sql`case when jsonb_typeof(${activities.data} -> 'module') = 'string' then ${activities.data} ->> 'module' else '' end`,
  data: sql`${activities.data}::text`,
};

/** Columns whose text is a uuid or a timestamp: never quoted, never read as a formula. */
const PLAIN_COLUMNS = new Set<string>(['id', 'created', 'object_id']);

/** One line of the export, without its end: CSV fields (portolan_csv_field) or a JSON object. */
function lineSql(format: ActivityExportFormat): SQL {
  if (format === 'csv') {
    const fields = ACTIVITY_EXPORT_COLUMNS.map((c) =>
      PLAIN_COLUMNS.has(c) ? COLUMN_SQL[c] : sql`portolan_csv_field(${COLUMN_SQL[c]})`,
    );
    return sql`concat_ws(',', ${sql.join(fields, sql`, `)})`;
  }
  // row_to_json writes compact JSON with the keys in this order.
  const named = ACTIVITY_EXPORT_COLUMNS.map((c) => sql`${COLUMN_SQL[c]} as ${sql.identifier(c)}`);
  return sql`(select row_to_json(r)::text from (select ${sql.join(named, sql`, `)}) r)`;
}

interface Cursor {
  /** created_at as the database writes it: its own precision (microseconds). */
  at: string;
  id: string;
}

/** The export's lines, newest first, after the cursor (keyset batches), with their keys. */
function batchQuery(
  db: Db,
  where: SQL | undefined,
  format: ActivityExportFormat,
  cursor: Cursor | null,
) {
  return db
    .select({
      line: sql<string>`${lineSql(format)}`,
      at: sql<string>`${activities.created_at}::text`,
      id: activities.id,
    })
    .from(activities)
    .leftJoin(users, eq(users.id, activities.user_id))
    .where(
      cursor
        ? and(
            where,
            sql`(${activities.created_at}, ${activities.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`,
          )
        : where,
    )
    .orderBy(desc(activities.created_at), desc(activities.id))
    .limit(EXPORT_BATCH);
}

/** Every line of the export, newest first, in one query (the COPY path): the line only. */
function allLinesQuery(db: Db, where: SQL | undefined, format: ActivityExportFormat) {
  return db
    .select({ line: sql<string>`${lineSql(format)}` })
    .from(activities)
    .leftJoin(users, eq(users.id, activities.user_id))
    .where(where)
    .orderBy(desc(activities.created_at), desc(activities.id));
}

/**
 * The keyset path (PGlite): batches of EXPORT_BATCH lines. The cursor keeps the database's own
 * precision: a JS Date would round it and skip or repeat rows made within one millisecond.
 */
async function* keysetLines(
  db: Db,
  where: SQL | undefined,
  format: ActivityExportFormat,
): AsyncGenerator<string> {
  const end = LINE_END[format];
  let cursor: Cursor | null = null;
  for (;;) {
    const batch = await batchQuery(db, where, format, cursor);
    if (batch.length > 0) yield batch.map((r) => r.line + end).join('');
    const last = batch.at(-1);
    if (!last || batch.length < EXPORT_BATCH) return;
    cursor = { at: last.at, id: last.id };
  }
}

/**
 * A query with its parameters written in as literals, for COPY (which takes none). The
 * parameters are the filter's values (a uuid, dates, an action, a search pattern), each quoted
 * by the driver's own escaping.
 */
function inlineParameters(query: { sql: string; params: unknown[] }): string {
  return query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = query.params[Number(n) - 1];
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string') return escapeLiteral(value);
    if (value instanceof Date) return escapeLiteral(value.toISOString());
    throw new Error(`export: cannot inline a parameter of type ${typeof value}`);
  });
}

/**
 * The export as a stream of bytes: the CSV header, then a line per activity. On PostgreSQL one
 * COPY streams every line from a single snapshot, with backpressure, never more than a socket
 * buffer in memory; on PGlite keyset batches.
 */
export function exportStream(
  database: Pick<Database, 'db' | 'copyOut'>,
  organizationId: string,
  query: ActivityExportQuery,
): Readable {
  const { format } = query;
  const where = activityFilter(organizationId, query);
  const header = format === 'csv' ? `${ACTIVITY_EXPORT_COLUMNS.join(',')}${LINE_END.csv}` : '';
  async function* bytes(): AsyncGenerator<Buffer | string> {
    if (header) yield header;
    if (database.copyOut) {
      const copy = database.copyOut(
        inlineParameters(allLinesQuery(database.db, where, format).toSQL()),
      );
      yield* copyTextLines(copy, Buffer.from(LINE_END[format]));
    } else {
      yield* keysetLines(database.db, where, format);
    }
  }
  return Readable.from(bytes());
}

/** activities-<organization>-<from>-<to>.<format>: the name the download is saved under. */
export function exportFileName(
  organizationName: string,
  query: Pick<ActivityExportQuery, 'format' | 'from_date' | 'to_date'>,
): string {
  const slug =
    organizationName
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^a-zA-Z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 40) || 'organization';
  return `activities-${slug}-${query.from_date ?? 'start'}-${query.to_date ?? 'now'}.${query.format}`;
}
