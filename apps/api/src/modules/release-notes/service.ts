import {
  ErrorCode,
  type Paginated,
  type ReleaseNote,
  type ReleaseNoteCreate,
  type ReleaseNoteStatus,
  type ReleaseNoteUpdate,
} from '@portolan/contract';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { platformAdmins, releaseNotes, releaseNoteViews } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../../lib/database-errors.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { pageFromRows, rowsOf, windowTotal, type PageQuery } from '../../lib/pagination.ts';
import { releaseNoteText, sanitizeReleaseNote } from './sanitize.ts';

type ReleaseNoteRow = typeof releaseNotes.$inferSelect;

/** Newest first: the later release date, then the later creation (then the id, to be total). */
const NEWEST_FIRST = [
  desc(releaseNotes.release_date),
  desc(releaseNotes.created_at),
  desc(releaseNotes.id),
];

export function toReleaseNoteDto(row: ReleaseNoteRow): ReleaseNote {
  return {
    id: row.id,
    version: row.version,
    release_date: row.release_date,
    release_note: row.release_note,
    created: row.created_at.toISOString(),
    modified: row.modified_at.toISOString(),
  };
}

const versionTaken = () => {
  const message = 'Another release note already has this version.';
  return conflict(ErrorCode.VERSION_TAKEN, message, [{ field: 'version', message }]);
};

/** The stored form of a note: sanitized, and refused when nothing readable is left. */
function storedNote(html: string): string {
  const clean = sanitizeReleaseNote(html);
  if (!releaseNoteText(clean)) {
    throw fieldError(
      'release_note',
      'The release note has no text once unsupported HTML is removed. Write what changed.',
    );
  }
  return clean;
}

// ---- reading ---------------------------------------------------------------------------------

/** GET /v1/release-notes/: every note, newest first, a page at a time. */
export async function listReleaseNotes(db: Db, query: PageQuery): Promise<Paginated<ReleaseNote>> {
  const rows = await db
    .select({ note: releaseNotes, total: windowTotal })
    .from(releaseNotes)
    .orderBy(...NEWEST_FIRST)
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  return pageFromRows(
    query,
    rows,
    (r) => toReleaseNoteDto(r.note),
    async () => (await db.$count(releaseNotes)) ?? 0,
  );
}

export async function getReleaseNote(db: Db, id: string): Promise<ReleaseNote> {
  const [row] = await db.select().from(releaseNotes).where(eq(releaseNotes.id, id)).limit(1);
  if (!row) throw notFound('No release note has this id.');
  return toReleaseNoteDto(row);
}

export async function isPlatformAdmin(db: Db | Tx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ user_id: platformAdmins.user_id })
    .from(platformAdmins)
    .where(eq(platformAdmins.user_id, userId))
    .limit(1);
  return row !== undefined;
}

/**
 * The caller's standing with the release notes: the newest note, and whether it is unseen. It
 * is unseen unless the caller marked this very note viewed, or looked at the panel after it was
 * published (so deleting the newest note does not bring back the dot for one already read).
 */
export async function releaseNoteStatus(db: Db, userId: string): Promise<ReleaseNoteStatus> {
  const latest = db
    .select({
      id: releaseNotes.id,
      version: releaseNotes.version,
      created_at: releaseNotes.created_at,
    })
    .from(releaseNotes)
    .orderBy(...NEWEST_FIRST)
    .limit(1)
    .as('latest');
  // Compared in the database: JavaScript dates would drop the microseconds.
  const [row] = await db
    .select({
      id: latest.id,
      version: latest.version,
      unviewed: sql<boolean>`(${releaseNoteViews.user_id} is null or (
        ${releaseNoteViews.release_note_id} is distinct from ${latest.id}
        and ${latest.created_at} > ${releaseNoteViews.viewed_at}))`,
    })
    .from(latest)
    .leftJoin(releaseNoteViews, eq(releaseNoteViews.user_id, userId));
  return {
    latest_id: row?.id ?? null,
    latest_version: row?.version ?? null,
    has_unviewed: row?.unviewed === true,
    is_platform_admin: await isPlatformAdmin(db, userId),
  };
}

// ---- the caller's "latest viewed" ------------------------------------------------------------

/**
 * POST /v1/release-notes/latest/viewed/: records the newest note as viewed by the caller, in one
 * statement (a note deleted meanwhile cannot break it). Again is the same; with no note at all
 * nothing is recorded.
 */
export async function markLatestViewed(db: Db, userId: string): Promise<ReleaseNoteStatus> {
  await db
    .insert(releaseNoteViews)
    .select((qb) =>
      qb
        .select({
          user_id: sql<string>`${userId}::uuid`.as('user_id'),
          release_note_id: releaseNotes.id,
          viewed_at: sql<Date>`now()`.as('viewed_at'),
        })
        .from(releaseNotes)
        .orderBy(...NEWEST_FIRST)
        .limit(1),
    )
    .onConflictDoUpdate({
      target: releaseNoteViews.user_id,
      set: {
        release_note_id: sql`excluded.release_note_id`,
        viewed_at: sql`excluded.viewed_at`,
      },
    });
  return releaseNoteStatus(db, userId);
}

// ---- platform administrators' changes --------------------------------------------------------

/**
 * Stores a new note, sanitized; null when another note has its version (case-insensitively), so
 * a caller inside a transaction (the demo seed) can go on.
 */
export async function insertReleaseNote(
  db: Db | Tx,
  body: ReleaseNoteCreate,
  createdBy: string | null,
): Promise<ReleaseNote | null> {
  const [row] = await db
    .insert(releaseNotes)
    .values({
      version: body.version,
      release_date: body.release_date,
      release_note: storedNote(body.release_note),
      created_by: createdBy,
    })
    .onConflictDoNothing()
    .returning();
  return row ? toReleaseNoteDto(row) : null;
}

export async function createReleaseNote(
  db: Db | Tx,
  body: ReleaseNoteCreate,
  createdBy: string | null,
): Promise<ReleaseNote> {
  const note = await insertReleaseNote(db, body, createdBy);
  if (!note) throw versionTaken();
  return note;
}

export async function updateReleaseNote(
  db: Db,
  id: string,
  body: ReleaseNoteUpdate,
): Promise<ReleaseNote> {
  const changes = {
    ...(body.version !== undefined && { version: body.version }),
    ...(body.release_date !== undefined && { release_date: body.release_date }),
    ...(body.release_note !== undefined && { release_note: storedNote(body.release_note) }),
    modified_at: new Date(),
  };
  let row: ReleaseNoteRow | undefined;
  try {
    [row] = await db.update(releaseNotes).set(changes).where(eq(releaseNotes.id, id)).returning();
  } catch (err) {
    if (isUniqueViolation(err)) throw versionTaken();
    throw err;
  }
  if (!row) throw notFound('No release note has this id.');
  return toReleaseNoteDto(row);
}

export async function deleteReleaseNote(db: Db, id: string): Promise<void> {
  const deleted = await db
    .delete(releaseNotes)
    .where(eq(releaseNotes.id, id))
    .returning({ id: releaseNotes.id });
  if (deleted.length === 0) throw notFound('No release note has this id.');
}
