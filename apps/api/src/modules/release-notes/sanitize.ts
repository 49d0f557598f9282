import { RELEASE_NOTE_TAGS } from '@portolan/contract';
import type SanitizeHtml from 'sanitize-html';
import { lazyModule } from '../../lib/lazy-module.ts';

const sanitizeHtml = lazyModule<typeof SanitizeHtml>('sanitize-html');

/** Links may point only at web pages and e-mail addresses (checked on the decoded value). */
const SAFE_HREF = /^(?:https?:\/\/|mailto:)/i;
const SCHEMES = ['http', 'https', 'mailto'];

/**
 * The allowlist of a release note (RELEASE_NOTE_TAGS): those elements, no attribute but a link's
 * `href` (http, https or mailto; a link to anything else becomes its text) and the
 * rel/target every link gets. Unknown elements go and their text stays; the content of script,
 * style and the like goes with them. No style, no class, no event handler, no comment.
 */
const OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: [...RELEASE_NOTE_TAGS],
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: SCHEMES,
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  allowedClasses: {},
  allowedStyles: {},
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard',
  parseStyleAttributes: false,
  exclusiveFilter: (frame) => (frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : false),
  // The link's own rel and target (whatever the author wrote) are replaced; a link to anything
  // else than a web page or an e-mail address loses its href, and then the element itself
  // (exclusiveFilter), its text staying.
  transformTags: {
    a: (tagName, attribs): SanitizeHtml.Tag => {
      const href = attribs.href?.trim();
      if (!href || !SAFE_HREF.test(href)) return { tagName, attribs: {} };
      return { tagName, attribs: { href, rel: 'noopener noreferrer', target: '_blank' } };
    },
  },
};

/** The note's HTML reduced to the allowlist: what is stored and what the preview shows. */
export function sanitizeReleaseNote(html: string): string {
  return sanitizeHtml()(html, OPTIONS).trim();
}

/** The words a sanitized note shows (no markup): empty means there is nothing to read. */
export function releaseNoteText(sanitized: string): string {
  return sanitizeHtml()(sanitized, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;|\s/g, '')
    .trim();
}
