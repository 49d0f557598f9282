import {
  CUSTOM_CSS_AT_RULES,
  CUSTOM_CSS_FORBIDDEN_PROPERTIES,
  CUSTOM_CSS_MAX_BYTES,
  CUSTOM_CSS_URL_FUNCTIONS,
  CssMessages,
  cssByteLength,
} from '@portolan/contract';
import type * as CssTree from 'css-tree';
import { lazyModule } from '../../lib/lazy-module.ts';
import { STORAGE_KEY_PATTERN } from '../uploads/index.ts';

/**
 * The rules a workspace's stylesheet must keep (issue 11): it is applied in every member's browser
 * while the workspace is current, so it may style the page but never load anything from outside
 * the portal, load another stylesheet or run code.
 *
 * Three independent passes, so a trick that one of them misses still meets the others:
 * 1. the text: no control characters, no `</style`, no `expression(` anywhere (comments too);
 * 2. the tokens (the CSS tokenizer, as a browser cuts the text): no broken string or url, no
 *    backslash escape in a function or at-rule name (`\75 rl(` is `url(` to a browser but not to
 *    every parser), every url token an upload;
 * 3. the tree (css-tree, names decoded): text that does not parse is refused; only the at-rules
 *    of CUSTOM_CSS_AT_RULES; every url() and every string of image-set(), image(), src() and
 *    cross-fade() an upload (`/uploads/<key>`), none of those taking a variable; no property
 *    that ran code (`behavior`, `-moz-binding`).
 */

export interface CssProblem {
  /** 1-based line of the source. */
  line: number;
  offset: number;
  message: string;
}

const cssTree = lazyModule<typeof CssTree>('css-tree');

/** `/uploads/<key>` of a file the uploads module stored: nothing else can be addressed. */
export function isUploadPath(value: string): boolean {
  const key = /^\/uploads\/([^/]+)$/.exec(value)?.[1];
  return key !== undefined && STORAGE_KEY_PATTERN.test(key);
}

/** Control characters other than tab, line feed, form feed and carriage return; lone surrogates. */
const CONTROL = /(?![\t\n\f\r])[\p{Cc}\p{Cs}]/u;

const URL_FUNCTIONS = new Set<string>(CUSTOM_CSS_URL_FUNCTIONS);
const AT_RULES = new Set<string>(CUSTOM_CSS_AT_RULES);
const FORBIDDEN_PROPERTIES = new Set<string>(CUSTOM_CSS_FORBIDDEN_PROPERTIES);
/** What may carry any value into an address at run time. */
const VARIABLES = new Set(['var', 'env', 'attr']);

/** A name as a browser reads it: escapes decoded, lower case, vendor prefix dropped. */
const baseName = (name: string) => {
  const csstree = cssTree();
  return csstree.keyword(csstree.ident.decode(name).toLowerCase()).basename;
};

/** The 1-based line of an offset; CSS breaks lines at \n, \r\n, \r and \f. */
function lineFinder(source: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x0d && source.charCodeAt(i + 1) === 0x0a) continue; // \r\n: counted at \n
    if (c === 0x0a || c === 0x0d || c === 0x0c) starts.push(i + 1);
  }
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/**
 * Every problem of the stylesheet, in the order of the text; none when it may be applied.
 * An empty stylesheet is fine (it removes the workspace's styles).
 */
export function checkCustomCss(css: string): CssProblem[] {
  const csstree = cssTree();
  const T = csstree.tokenTypes;
  if (css === '') return [];
  const bytes = cssByteLength(css);
  if (bytes > CUSTOM_CSS_MAX_BYTES)
    return [{ line: 1, offset: 0, message: CssMessages.tooLarge(bytes) }];
  const lineOf = lineFinder(css);
  const problems: CssProblem[] = [];
  const add = (offset: number, message: (line: number) => string) => {
    const line = lineOf(offset);
    problems.push({ line, offset, message: message(line) });
  };

  // 1. The text. Control characters stop here: nothing after them can be trusted to line up.
  const control = CONTROL.exec(css);
  if (control) {
    add(control.index, CssMessages.controlCharacters);
    return problems;
  }
  // On the text as written and as decoded (`expressi\6fn(` is `expression(` to a browser).
  const decoded = decodeEscapes(css);
  for (const [text, offsetAt] of [
    [css, (i: number) => i],
    [decoded.text, (i: number) => decoded.offsets[i] ?? 0],
  ] as const) {
    for (const m of text.matchAll(/<\/style/gi)) add(offsetAt(m.index), CssMessages.styleEnd);
    for (const m of text.matchAll(/expression(?:\s|\/\*[\s\S]*?\*\/)*\(/gi)) {
      add(offsetAt(m.index), CssMessages.expression);
    }
  }

  // 2. The tokens.
  csstree.tokenize(css, (type, start, end) => {
    if (type === T.BadString) {
      add(start, (line) => CssMessages.unreadable(line, 'a string is not closed on its line'));
    } else if (type === T.BadUrl) {
      add(start, (line) => CssMessages.unreadable(line, 'a url() is broken'));
    } else if (type === T.Function || type === T.AtKeyword) {
      if (css.slice(start, end).includes('\\')) add(start, CssMessages.escapedName);
    } else if (type === T.Url) {
      const value = csstree.url.decode(css.slice(start, end));
      if (!isUploadPath(value)) add(start, (line) => CssMessages.url(line, value));
    }
  });

  // 3. The tree.
  try {
    walkTree(css, add);
  } catch (error) {
    // css-tree reports through onParseError; a throw is the text's doing too (deep nesting).
    add(0, (line) => CssMessages.unreadable(line, describe(String((error as Error).message))));
  }
  return sorted(problems);
}

/** Pass 3: the tree of the stylesheet, names decoded as a browser reads them. */
function walkTree(css: string, add: (offset: number, message: (line: number) => string) => void) {
  const csstree = cssTree();
  const ast = csstree.parse(css, {
    positions: true,
    parseCustomProperty: true,
    onParseError: (error) => {
      add(error.offset, (line) => CssMessages.unreadable(line, describe(error.message)));
    },
  });
  const offsetOf = (node: CssTree.CssNode) => node.loc?.start.offset ?? 0;
  csstree.walk(ast, (node) => {
    switch (node.type) {
      case 'Atrule': {
        const name = baseName(node.name);
        if (name === 'import') add(offsetOf(node), CssMessages.importRule);
        else if (!AT_RULES.has(name)) {
          add(offsetOf(node), (line) => CssMessages.atRule(line, csstree.ident.decode(node.name)));
        }
        break;
      }
      case 'Declaration': {
        const decoded = csstree.ident.decode(node.property).toLowerCase();
        const property = csstree.property(decoded);
        if (
          FORBIDDEN_PROPERTIES.has(property.name) ||
          FORBIDDEN_PROPERTIES.has(property.basename)
        ) {
          add(offsetOf(node), (line) => CssMessages.property(line, decoded));
        }
        break;
      }
      case 'Url':
        if (!isUploadPath(node.value)) {
          add(offsetOf(node), (line) => CssMessages.url(line, node.value));
        }
        break;
      case 'Function': {
        const name = baseName(node.name);
        if (name === 'expression') add(offsetOf(node), CssMessages.expression);
        if (URL_FUNCTIONS.has(name)) checkAddressFunction(node, name, add);
        break;
      }
      case 'Raw':
        // Text the parser kept without understanding it: nothing in it may act.
        if (actsInRaw(node.value)) {
          add(offsetOf(node), (line) => CssMessages.unreadable(line, 'unexpected text'));
        }
        break;
    }
  });
}

/**
 * The text with every CSS escape decoded (`\65 ` → `e`, `\(` → `(`), and for each character of
 * it the offset in the source it came from. A backslash before a line break stays as it is.
 */
export function decodeEscapes(source: string): { text: string; offsets: number[] } {
  let text = '';
  const offsets: number[] = [];
  let i = 0;
  while (i < source.length) {
    const start = i;
    if (source[i] !== '\\' || /[\n\r\f]/.test(source[i + 1] ?? '\n')) {
      const char = String.fromCodePoint(source.codePointAt(i)!);
      text += char;
      for (let k = 0; k < char.length; k++) offsets.push(start);
      i += char.length;
      continue;
    }
    const hex = /^[0-9a-fA-F]{1,6}/.exec(source.slice(i + 1, i + 7))?.[0];
    let char: string;
    if (hex) {
      const code = parseInt(hex, 16);
      const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
      char = String.fromCodePoint(valid ? code : 0xfffd);
      i += 1 + hex.length;
      if (source.startsWith('\r\n', i)) i += 2;
      else if (/[ \t\n\r\f]/.test(source[i] ?? '')) i += 1;
    } else {
      char = String.fromCodePoint(source.codePointAt(i + 1)!);
      i += 1 + char.length;
    }
    text += char;
    for (let k = 0; k < char.length; k++) offsets.push(start);
  }
  return { text, offsets };
}

/** image-set("a.png" 1x) and the like: each string an upload, no variable anywhere inside. */
function checkAddressFunction(
  node: CssTree.FunctionNode,
  name: string,
  add: (offset: number, message: (line: number) => string) => void,
) {
  const csstree = cssTree();
  for (const child of node.children) {
    if (child.type === 'String' && !isUploadPath(child.value)) {
      add(child.loc?.start.offset ?? 0, (line) => CssMessages.address(line, name, child.value));
    }
  }
  csstree.walk(node, (inner) => {
    if (inner.type === 'Function' && VARIABLES.has(baseName(inner.name))) {
      add(inner.loc?.start.offset ?? 0, (line) => CssMessages.variableAddress(line, name));
    }
  });
}

/** Whether raw text holds a function, a url or an at-rule: something that could load or run. */
function actsInRaw(text: string): boolean {
  const csstree = cssTree();
  const T = csstree.tokenTypes;
  let acts = false;
  csstree.tokenize(text, (type) => {
    if (type === T.Function || type === T.Url || type === T.BadUrl || type === T.AtKeyword) {
      acts = true;
    }
  });
  return acts;
}

/** css-tree's "Selector is expected" as part of a sentence; a stack overflow as what it means. */
const describe = (message: string) =>
  /call stack/i.test(message)
    ? 'it is nested too deeply'
    : message.replace(/\.$/, '').replace(/^./, (c) => c.toLowerCase());

function sorted(problems: CssProblem[]): CssProblem[] {
  const seen = new Set<string>();
  return problems
    .sort((a, b) => a.offset - b.offset)
    .filter((p) => {
      const key = `${p.line}\u0000${p.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** The one message a refused stylesheet gets: the first problem, and how many follow. */
export function cssProblemMessage(problems: readonly CssProblem[]): string {
  const [first, ...rest] = problems;
  if (!first) return '';
  return rest.length > 0
    ? `${first.message} ${CssMessages.moreProblems(rest.length)}`
    : first.message;
}

/** The attribute of the regions a workspace's stylesheet reaches (the app shell: header, sidebar, page, footer). */
export const WORKSPACE_STYLE_SCOPE = '[data-workspace-style]';

/** Selectors of the whole document: within the scope they mean the region itself. */
const DOCUMENT_ROOTS = /^(?::root|html|body)(?![\w-])/i;

const scopedCache = new Map<string, string>();
const SCOPED_CACHE_SIZE = 64;

/**
 * The stylesheet as the web app applies it (issue 18): every selector under
 * `[data-workspace-style]`, the attribute of the app shell's root, so `header { … }` restyles the
 * page's header but never a modal's, a menu's or a toast's (portals outside the shell). `:root`,
 * `html` and `body` at the head of a selector become the scope itself; keyframe selectors and
 * nested rules (already relative) stay. Only called on a stylesheet `checkCustomCss` accepted;
 * the answer is kept per text (a few recent ones), since every member's switch reads it.
 */
export function scopeCustomCss(css: string): string {
  if (css.trim() === '') return '';
  const cached = scopedCache.get(css);
  if (cached !== undefined) return cached;
  const csstree = cssTree();
  const ast = csstree.parse(css, { parseCustomProperty: false });
  csstree.walk(ast, {
    visit: 'Rule',
    enter(node) {
      // Inside another rule (nesting) a selector is relative to it; keyframes select no element.
      if (this.rule || (this.atrule && baseName(this.atrule.name) === 'keyframes')) return;
      const selectors =
        node.prelude.type === 'SelectorList'
          ? node.prelude.children.toArray().map((s) => csstree.generate(s))
          : csstree.generate(node.prelude).split(',');
      const scoped = selectors
        .map((s) => s.trim())
        .map((s) =>
          DOCUMENT_ROOTS.test(s)
            ? s.replace(DOCUMENT_ROOTS, WORKSPACE_STYLE_SCOPE)
            : `${WORKSPACE_STYLE_SCOPE} ${s}`,
        );
      node.prelude = csstree.parse(scoped.join(','), {
        context: 'selectorList',
      }) as CssTree.SelectorList;
    },
  });
  const out = csstree.generate(ast);
  if (scopedCache.size >= SCOPED_CACHE_SIZE) scopedCache.delete(scopedCache.keys().next().value!);
  scopedCache.set(css, out);
  return out;
}
