import type { Readable } from 'node:stream';
import { eq, sql, type AnyColumn } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { TableName } from '../db/ownership.ts';
import { clients } from '../db/schema/index.ts';

/**
 * What a module gives to data exports (issue 19): each module's face exports an `exporter` for
 * the tables it owns, and the data-exports module assembles the archives from them, file by file
 * in the layout it declares (modules/data-exports/layout.ts). A section is a whole file, or one
 * key of a JSON file several modules fill (`memberships.json#invitations`).
 */

/** The two kinds of archive. */
export type ExportKind = 'USER' | 'ORGANIZATION';

/** Where uploaded bytes are read from (the uploads module's storage). */
export interface ExportFileSource {
  get(key: string): Promise<{ body: Readable } | null>;
}

export interface ExportInput {
  db: Db;
  /** The user's id (USER) or the organization's (ORGANIZATION): every query is scoped by it. */
  id: string;
  at: Date;
  files: ExportFileSource;
}

/** Files beside the section's own (the uploads' bytes), written before it. */
export interface ExportOut {
  binary(name: string, body: AsyncIterable<Uint8Array | string>): Promise<void>;
}

export type ExportSection =
  /** A JSON value: a file of its own, or a key of a shared file. */
  | { json: (input: ExportInput, out: ExportOut) => Promise<unknown> }
  /** JSON Lines, streamed (a `.jsonl` file). */
  | { lines: (input: ExportInput) => AsyncIterable<string> };

export interface Exporter {
  /** The tables (of the module's own) whose rows or columns its sections carry. */
  tables: readonly TableName[];
  sections: Partial<Record<ExportKind, Record<string, ExportSection>>>;
}

/** Rows read per query when a data set is streamed (activities, ledger entries). */
export const BATCH = 1000;

/** Where a keyset read stopped: the last row's time as the database writes it, and its id. */
export interface Cursor {
  /** `created_at::text`: the database's own precision (a JS Date would round microseconds). */
  at: string;
  id: string;
}

/** The cursor columns of a keyset read: select them beside the row. */
export const cursorOf = (createdAt: AnyColumn, id: AnyColumn) => ({
  at: sql<string>`${createdAt}::text`,
  id: sql<string>`${id}`,
});

/** The rows after the cursor (none: from the start), in (created_at, id) order. */
export const afterCursor = (createdAt: AnyColumn, id: AnyColumn, after: Cursor | null) =>
  after ? sql`(${createdAt}, ${id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined;

/**
 * Every row of a data set, a batch at a time by keyset (created_at, id) — never OFFSET, never the
 * whole set in memory. `next` reads up to BATCH rows after the cursor (or from the start).
 */
export async function* keyset<R extends { at: string; id: string }>(
  next: (after: Cursor | null) => Promise<R[]>,
): AsyncGenerator<R> {
  let cursor: Cursor | null = null;
  for (;;) {
    const batch = await next(cursor);
    yield* batch;
    const last = batch.at(-1);
    if (!last || batch.length < BATCH) return;
    cursor = { at: last.at, id: last.id };
  }
}

/** JSON Lines: one JSON document per line. */
export async function* jsonLines<T>(
  rows: AsyncIterable<T>,
  toJson: (row: T) => unknown,
): AsyncGenerator<string> {
  for await (const row of rows) yield `${JSON.stringify(toJson(row))}\n`;
}

/** The organization's workspaces' ids, as a subquery: workspace rows are scoped through it. */
export const workspaceIdsOf = (db: Db, organizationId: string) =>
  db.select({ id: clients.id }).from(clients).where(eq(clients.organization_id, organizationId));
