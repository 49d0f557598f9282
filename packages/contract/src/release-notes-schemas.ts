import { z } from 'zod';
import { pageQuery } from './organizations.ts';
import { paginated } from './pagination.ts';
import {
  RELEASE_DATE_MAX_YEAR,
  RELEASE_DATE_MIN_YEAR,
  RELEASE_NOTE_MAX_LENGTH,
  RELEASE_NOTE_VERSION_MAX_LENGTH,
  RELEASE_NOTES_PAGE_SIZE,
} from './release-notes.ts';
import { singleLine } from './text.ts';

/**
 * The release-notes calls of spec §7 ("release notes fetch; mark latest release viewed") and the
 * platform administrators' management of them.
 */

const isoTime = z.iso.datetime({ offset: true });

/** NUL cannot be stored in PostgreSQL text, an unpaired surrogate not even as UTF-8. */
const UNSTORABLE = /[\0\p{Cs}]/u;

/** One version of the portal and what changed in it; `release_note` is sanitized HTML. */
export const releaseNoteSchema = z.object({
  id: z.uuid(),
  version: z.string(),
  /** A calendar day, YYYY-MM-DD: no time, no time zone. */
  release_date: z.iso.date(),
  release_note: z.string(),
  created: isoTime,
  modified: isoTime,
});
export type ReleaseNote = z.infer<typeof releaseNoteSchema>;
export const releaseNotePageSchema = paginated(releaseNoteSchema);
/** GET /v1/release-notes/: newest first (release_date, then creation), 10 a page. */
export const releaseNoteListQuerySchema = pageQuery(RELEASE_NOTES_PAGE_SIZE);
export const releaseNoteParamsSchema = z.strictObject({ id: z.uuid('Not a valid id.') });

const versionField = singleLine()
  .min(1, 'Enter the version.')
  .max(
    RELEASE_NOTE_VERSION_MAX_LENGTH,
    `Keep the version to ${RELEASE_NOTE_VERSION_MAX_LENGTH} characters or fewer.`,
  );

const releaseDateField = z.iso.date('Give the release date as YYYY-MM-DD.').refine(
  (d) => {
    const year = Number(d.slice(0, 4));
    return year >= RELEASE_DATE_MIN_YEAR && year <= RELEASE_DATE_MAX_YEAR;
  },
  { message: `Give a release date between ${RELEASE_DATE_MIN_YEAR} and ${RELEASE_DATE_MAX_YEAR}.` },
);

/** The note's HTML as written: sanitized by the server before it is stored or previewed. */
const noteHtml = z
  .string()
  .max(
    RELEASE_NOTE_MAX_LENGTH,
    `Keep the release note to ${RELEASE_NOTE_MAX_LENGTH} characters or fewer.`,
  )
  .refine((s) => !UNSTORABLE.test(s), {
    message: 'Remove the NUL character and invalid Unicode from the release note.',
    abort: true,
  });

const noteField = noteHtml.refine((s) => s.trim().length > 0, {
  message: 'Write the release note.',
});

/** POST /v1/release-notes/ (platform administrators). */
export const releaseNoteCreateSchema = z.strictObject({
  version: versionField,
  release_date: releaseDateField,
  release_note: noteField,
});
export type ReleaseNoteCreate = z.infer<typeof releaseNoteCreateSchema>;

/** PATCH /v1/release-notes/{id}/ (platform administrators): any of the fields, at least one. */
export const releaseNoteUpdateSchema = releaseNoteCreateSchema
  .partial()
  .refine((b) => Object.keys(b).length > 0, {
    message: 'Send at least one of version, release_date and release_note.',
  });
export type ReleaseNoteUpdate = z.infer<typeof releaseNoteUpdateSchema>;

/** POST /v1/release-notes/preview/: the note as it would be stored, for the editor's preview. */
export const releaseNotePreviewSchema = z.strictObject({ release_note: noteHtml });
export const releaseNotePreviewResultSchema = z.object({ release_note: z.string() });
export type ReleaseNotePreview = z.infer<typeof releaseNotePreviewResultSchema>;

/**
 * GET /v1/release-notes/status/ and the answer of POST /v1/release-notes/latest/viewed/: the
 * newest note, whether the caller has yet to see it (the toggle's dot), and whether the caller is
 * a platform administrator (the panel's link to the management page).
 */
export const releaseNoteStatusSchema = z.object({
  latest_id: z.uuid().nullable(),
  latest_version: z.string().nullable(),
  has_unviewed: z.boolean(),
  is_platform_admin: z.boolean(),
});
export type ReleaseNoteStatus = z.infer<typeof releaseNoteStatusSchema>;
