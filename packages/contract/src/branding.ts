/**
 * Workspace branding (spec §3 "Seller settings": default_client_header_logo, custom_css; §2 "a
 * custom stylesheet"): the header logo and the stylesheet a workspace's OWNER or ADMIN sets, which
 * the web app applies while the workspace is current. The rules the server checks a stylesheet
 * against and their messages live here, so the page and the server say the same thing.
 * Zod-free: the web app imports it (its schemas are in branding-schemas.ts).
 */

/** The largest stylesheet a workspace may have, in bytes of UTF-8. */
export const CUSTOM_CSS_MAX_BYTES = 20 * 1024;

/**
 * The at-rules a stylesheet may use (names without a vendor prefix). Everything else is refused:
 * `@import` above all (it loads another stylesheet), `@namespace`, `@charset`, `@document`,
 * `@property` and whatever a browser adds next.
 */
export const CUSTOM_CSS_AT_RULES = [
  'media',
  'supports',
  'keyframes',
  'font-face',
  'layer',
  'container',
  'page',
] as const;

/** Properties that once ran code (IE's `behavior`, Firefox's XBL `-moz-binding`). */
export const CUSTOM_CSS_FORBIDDEN_PROPERTIES = [
  'behavior',
  '-ms-behavior',
  '-moz-binding',
] as const;

/**
 * Functions whose strings are addresses of images (`image-set("a.png" 1x)`): their strings must
 * name an upload, and they may not take a variable (which could hold any address).
 */
export const CUSTOM_CSS_URL_FUNCTIONS = ['url', 'src', 'image-set', 'image', 'cross-fade'] as const;

/** The size of a text in bytes of UTF-8, as the server counts it (a lone surrogate as U+FFFD). */
export function cssByteLength(css: string): number {
  let bytes = 0;
  for (let i = 0; i < css.length; i++) {
    const c = css.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (css.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** A size in KB with at most one decimal (20 KB, 20.5 KB). */
export const kilobytes = (bytes: number): string => `${Math.round((bytes / 1024) * 10) / 10} KB`;

const at = (line: number) => `Line ${line}: `;
const AT_RULE_LIST = CUSTOM_CSS_AT_RULES.map((r) => `@${r}`).join(', ');
/** A value as quoted in a message: short, on one line. */
const shown = (value: string) => {
  const one = value.replace(/\s+/g, ' ');
  return one.length > 60 ? `${one.slice(0, 57)}…` : one;
};

/** What a refused stylesheet is told, always saying where (the line) and what to do. */
export const CssMessages = {
  tooLarge: (bytes: number) =>
    `The stylesheet is ${kilobytes(bytes)}: keep it within ${kilobytes(CUSTOM_CSS_MAX_BYTES)}.`,
  controlCharacters: (line: number) =>
    `${at(line)}remove the control character (such as NUL) or the invalid Unicode.`,
  unreadable: (line: number, why: string) =>
    `${at(line)}the stylesheet cannot be read here (${why}). Check for a missing or extra brace, bracket or quote.`,
  importRule: (line: number) =>
    `${at(line)}@import is not allowed: a workspace stylesheet cannot load another one. Put the rules here instead.`,
  atRule: (line: number, name: string) =>
    `${at(line)}@${shown(name)} is not allowed. Use only ${AT_RULE_LIST}.`,
  url: (line: number, value: string) =>
    `${at(line)}url(${shown(value)}) is not allowed: an address may only name an image uploaded to this portal (/uploads/…). Upload the image and use the address it gets.`,
  address: (line: number, fn: string, value: string) =>
    `${at(line)}"${shown(value)}" in ${fn}() is not allowed: an address may only name an image uploaded to this portal (/uploads/…). Upload the image and use the address it gets.`,
  variableAddress: (line: number, fn: string) =>
    `${at(line)}${fn}() cannot take var(), env() or attr(): name an uploaded image (/uploads/…) directly.`,
  expression: (line: number) =>
    `${at(line)}expression() is not allowed: a stylesheet cannot run code.`,
  property: (line: number, name: string) =>
    `${at(line)}the property ${shown(name)} is not allowed: it could run code.`,
  escapedName: (line: number) =>
    `${at(line)}write function and at-rule names without backslash escapes.`,
  styleEnd: (line: number) => `${at(line)}“</style” is not allowed in a stylesheet.`,
  moreProblems: (count: number) =>
    count === 1 ? '1 more problem follows.' : `${count} more problems follow.`,
} as const;
