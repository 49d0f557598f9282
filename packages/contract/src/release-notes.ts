/**
 * Release notes (spec §2 "Release notes panel", §3 "Release note"): a version of the portal, its
 * release date and what changed, written as HTML by the platform's administrators and stored
 * sanitized. Zod-free: the web app's form and panel use the same limits and the same date text.
 */

/** The longest version label ("v1.7.4", "2026.11 hotfix 2"). */
export const RELEASE_NOTE_VERSION_MAX_LENGTH = 32;
/** The longest note, in characters of HTML as written (before sanitizing). */
export const RELEASE_NOTE_MAX_LENGTH = 20_000;
/** The panel and the list read this many notes a page (newest first). */
export const RELEASE_NOTES_PAGE_SIZE = 10;
/** The earliest and latest years a release date may have. */
export const RELEASE_DATE_MIN_YEAR = 2000;
export const RELEASE_DATE_MAX_YEAR = 2999;

/**
 * The HTML a note may keep; everything else is removed on write (the text of an unknown element
 * stays, the content of script and style goes). Links keep only an http, https or mailto `href`
 * and always open in a new tab with rel="noopener noreferrer". No attribute survives elsewhere:
 * no style, no class, no event handler.
 */
export const RELEASE_NOTE_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'a',
  'h3',
  'h4',
  'blockquote',
  'code',
  'pre',
] as const;

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A release date (a calendar day, YYYY-MM-DD, with no time and no time zone) as the UI shows it,
 * MM/DD/YYYY (spec §9). Read from the text itself: going through `Date` would move it to the day
 * before for anyone west of UTC. Anything else comes back as it is.
 */
export function releaseDateText(isoDate: string): string {
  const m = PLAIN_DATE.exec(isoDate);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : isoDate;
}
