import { CUSTOM_CSS_MAX_BYTES } from '@portolan/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCustomCss, cssProblemMessage, isUploadPath, scopeCustomCss } from './css-policy.ts';

const KEY = '3f2a1c9e-1b2c-4d3e-8f90-123456789abc.png';
const UPLOAD = `/uploads/${KEY}`;

const problemOf = (css: string) => cssProblemMessage(checkCustomCss(css));

describe('isUploadPath', () => {
  it('takes /uploads/<key> of a stored file and nothing else', () => {
    expect(isUploadPath(UPLOAD)).toBe(true);
    for (const bad of [
      `/uploads/${KEY}?x=1`,
      `/uploads/${KEY}#a`,
      `/uploads/../${KEY}`,
      `uploads/${KEY}`,
      `//evil.example/uploads/${KEY}`,
      `https://evil.example/uploads/${KEY}`,
      `/uploads/${KEY.toUpperCase()}`,
      `/uploads/${KEY.replace('.png', '.svg')}`,
      '/uploads/',
      '/v1/users/',
    ]) {
      expect({ bad, ok: isUploadPath(bad) }).toEqual({ bad, ok: false });
    }
  });
});

describe('checkCustomCss: what a workspace may write', () => {
  const accepted = [
    '',
    'body { --workspace-accent: #c2255c; }',
    'header.mantine-AppShell-header { background-color: rgb(1 2 3 / 50%) !important; }',
    `.brand { background: url(${UPLOAD}) no-repeat; }`,
    `.brand { background-image: url( "${UPLOAD}" ); }`,
    `.brand { background-image: url(\\2f uploads/${KEY}); }`,
    `.brand { background-image: -webkit-image-set("${UPLOAD}" 1x, url(${UPLOAD}) 2x); }`,
    `@font-face { font-family: Brand; src: local("Arial"), url(${UPLOAD}) format("woff2"); }`,
    '@media screen and (max-width: 600px), print { a { color: red } }',
    '@supports (display: grid) { a { display: grid } }',
    '@keyframes pulse { from { opacity: 1 } 50% { opacity: .5 } to { opacity: 1 } }',
    '@-webkit-keyframes pulse { from { opacity: 0 } }',
    '@layer base, brand; @layer brand { a { color: red } }',
    '@container (min-width: 400px) { a { color: red } }',
    '@page { margin: 1cm }',
    'a:is(.x, .y):has(> img)[data-x^="y" i]::before { content: "\\201C"; }',
    '.x { width: calc(100% - var(--w, 10px)); -webkit-appearance: none; }',
    '/* brand colours */\na { color: red; }\n',
    'a { color: red',
  ];
  it.each(accepted)('accepts %j', (css) => {
    expect(checkCustomCss(css)).toEqual([]);
  });
});

describe('checkCustomCss: hostile stylesheets, each with what it is told', () => {
  // [stylesheet, a part of the first message]: every one is refused, naming its line.
  const refused: [string, string][] = [
    ['@import url(https://evil.example/x.css);', 'Line 1: @import is not allowed'],
    ['@IMPORT "x.css";', '@import is not allowed'],
    ['a {}\n@import "x.css";', 'Line 2: @import is not allowed'],
    ['@\\69mport "x.css";', 'without backslash escapes'],
    ['@media print { @import "x.css"; }', '@import is not allowed'],
    ['@namespace svg url(http://www.w3.org/2000/svg);', '@namespace is not allowed'],
    ['@charset "utf-8";', '@charset is not allowed'],
    ['@-moz-document url-prefix() { a { color: red } }', '@-moz-document is not allowed'],
    [
      'a { background: url(https://evil.example/p.png) }',
      'url(https://evil.example/p.png) is not allowed',
    ],
    ['a { background: URL(http://evil.example/p.png) }', 'is not allowed'],
    ['a { background: url("//evil.example/p.png") }', 'url(//evil.example/p.png)'],
    ['a { background: url(data:image/png;base64,AAAA) }', 'url(data:image/png;base64,AAAA)'],
    ["a { background: url('javascript:alert(1)') }", 'url(javascript:alert(1))'],
    ['a { background: url(http\\3a //evil.example/p.png) }', 'url(http://evil.example/p.png)'],
    ['a { background: url(/uploads/../v1/users/) }', 'is not allowed'],
    [`a { background: url(uploads/${KEY}) }`, 'is not allowed'],
    [`a { background: url(/uploads/${KEY}?track=1) }`, 'is not allowed'],
    ['a { background: \\75 rl(http://evil.example/p.png) }', 'without backslash escapes'],
    ['a { background: u\\72l("http://evil.example/p.png") }', 'without backslash escapes'],
    [
      'a { background: image-set("https://evil.example/p.png" 1x) }',
      'in image-set() is not allowed',
    ],
    [
      'a { background: -webkit-image-set("//evil.example/p.png" 1x) }',
      'in image-set() is not allowed',
    ],
    ['a { background: image("https://evil.example/p.png") }', 'in image() is not allowed'],
    [
      ':root { --u: "https://evil.example/p.png" } a { background: image-set(var(--u) 1x) }',
      'cannot take var()',
    ],
    ['a { background: src(var(--u)) }', 'src() cannot take var()'],
    [':root { --evil: url(https://evil.example/p.png) }', 'url(https://evil.example/p.png)'],
    ['a { width: expression(alert(1)) }', 'expression() is not allowed'],
    ['a { width: EXPRESSION (alert(1)) }', 'expression() is not allowed'],
    ['a { width: \\65xpression(alert(1)) }', 'expression() is not allowed'],
    ['a { width: expressi\\6fn /* c */ (1) }', 'expression() is not allowed'],
    ['/* expression( */ a { color: red }', 'expression() is not allowed'],
    ['a { behavior: url(x.htc) }', 'the property behavior is not allowed'],
    ['a { b\\65havior: none }', 'the property behavior is not allowed'],
    ['a { *behavior: none }', 'the property *behavior is not allowed'],
    ['a { -moz-binding: none }', 'the property -moz-binding is not allowed'],
    ['a { color: red } </style><script>alert(1)</script>', '“</style” is not allowed'],
    ['a { content: "</STYLE>" }', '“</style” is not allowed'],
    ['a { color: red; } }', 'cannot be read here'],
    ['a { content: "open\nb" }', 'a string is not closed on its line'],
    ['a { background: url(http://x"y) }', 'a url() is broken'],
    ['a { b: ' + 'f('.repeat(10_000) + ' }', 'it is nested too deeply'],
    [':is('.repeat(4_000), 'it is nested too deeply'],
    ['a { color: red }\u0000', 'remove the control character'],
    ['a { color: red }\u0007', 'remove the control character'],
    ['a { content: "\uD800" }', 'remove the control character'],
  ];
  it.each(refused)('refuses %j', (css, expected) => {
    const message = problemOf(css);
    expect(message).toContain(expected);
    expect(message).toMatch(/^Line \d+: /);
  });

  it('says on which line, counting \\n, \\r\\n, \\r and \\f', () => {
    expect(problemOf('a{}\r\nb{}\r\n@import "x";')).toMatch(/^Line 3: @import/);
    expect(problemOf('a{}\rb{}\f@import "x";')).toMatch(/^Line 3: @import/);
    expect(problemOf('a{}\n\n\n\na { background: url(http://e.x/) }')).toMatch(/^Line 5: url/);
  });

  it('tells the first problem and how many more follow', () => {
    const problems = checkCustomCss('@import "a";\na { background: url(http://e.x/) }\n');
    expect(problems.map((p) => p.line)).toEqual([1, 2]);
    expect(cssProblemMessage(problems)).toMatch(/^Line 1: @import.*1 more problem follows\.$/);
  });

  it('refuses a stylesheet over the size bound (in bytes, not characters)', () => {
    expect(checkCustomCss('a{}'.padEnd(CUSTOM_CSS_MAX_BYTES, ' '))).toEqual([]);
    expect(problemOf('a{}'.padEnd(CUSTOM_CSS_MAX_BYTES + 1, ' '))).toContain(
      'keep it within 20 KB',
    );
    expect(problemOf(`a{content:"${'é'.repeat(CUSTOM_CSS_MAX_BYTES / 2)}"}`)).toContain(
      'keep it within 20 KB',
    );
  });
});

// ---- properties ------------------------------------------------------------------------------

/** Writes each letter of a name as a CSS escape, sometimes: what a browser decodes back. */
const obfuscated = (word: string) =>
  fc
    .array(fc.constantFrom('plain', 'upper', 'hex', 'hex-space'), {
      minLength: word.length,
      maxLength: word.length,
    })
    .map((ways) =>
      [...word]
        .map((c, i) => {
          const hex = c.charCodeAt(0).toString(16);
          switch (ways[i]) {
            case 'upper':
              return c.toUpperCase();
            case 'hex': {
              // An escape ends at the first non-hex character; else a space ends it.
              const next = word[i + 1];
              return next === undefined || /[0-9a-f]/i.test(next) ? `\\${hex} ` : `\\${hex}`;
            }
            case 'hex-space':
              return `\\${hex} `;
            default:
              return c;
          }
        })
        .join(''),
    );

const space = fc.constantFrom('', ' ', '\n', '\t', '/* c */');
const evilUrl = fc.constantFrom(
  'http://evil.example/p.png',
  'https://evil.example/p.png',
  '//evil.example/p.png',
  'data:image/png;base64,AAAA',
  'javascript:alert(1)',
  '/v1/users/',
  '../uploads/x.png',
);

/** A fragment that must always be refused, however it is written. */
const hostile = fc.oneof(
  fc.tuple(obfuscated('import'), space).map(([name, s]) => `@${name}${s} "x.css";`),
  fc
    .tuple(obfuscated('url'), space, evilUrl, fc.constantFrom('', '"', "'"))
    .map(([name, s, url, q]) => `a { background: ${name}(${s}${q}${url}${q}${s}) }`),
  fc
    .tuple(fc.constantFrom('image-set', '-webkit-image-set', 'image'), evilUrl)
    .map(([fn, url]) => `a { background: ${fn}("${url}" 1x) }`),
  fc.tuple(obfuscated('expression'), space).map(([name, s]) => `a { width: ${name}${s}(1) }`),
  fc
    .tuple(fc.constantFrom('behavior', '-moz-binding'), fc.boolean())
    .chain(([p, esc]) => (esc ? obfuscated(p) : fc.constant(p)))
    .map((p) => `a { ${p}: none }`),
  fc.constantFrom('a {} </style><script>alert(1)</script>', 'a {} </STYLE >'),
);

/** A fragment that is always fine. */
const safe = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('a', 'body', '.brand', 'header > nav', '#x:hover'),
      fc.integer({ min: 0, max: 0xffffff }),
    )
    .map(([sel, n]) => `${sel} { color: #${n.toString(16).padStart(6, '0')}; }`),
  fc.constantFrom(
    `.logo { background: url(${UPLOAD}) }`,
    `.logo { background: url("${UPLOAD}") }`,
    ':root { --workspace-accent: tomato; }',
    '@media (max-width: 600px) { a { display: none } }',
    '@keyframes k { from { opacity: 0 } to { opacity: 1 } }',
    '/* a comment */',
  ),
);

/**
 * The stylesheet as a browser sees it, decoded: comments out, escapes decoded, lower case. What
 * the policy accepts must hold nothing that loads or runs anything, however it was written.
 */
function decoded(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\\([0-9a-f]{1,6})[ \t\n\f\r]?/gi, (_m, hex: string) =>
      String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd),
    )
    .replace(/\\(.)/g, '$1')
    .toLowerCase();
}

const LOADS_OR_RUNS = [
  /@import/,
  /expression\s*\(/,
  /url\((?!\s*['"]?\/uploads\/)/,
  /image-set\(\s*['"](?!\/uploads\/)/,
  /behavior\s*:/,
  /binding\s*:/,
  /<\/style/,
];

describe('checkCustomCss: properties', () => {
  it('refuses every stylesheet with a hostile part, wherever it is and however written', () => {
    fc.assert(
      fc.property(
        fc.array(safe, { maxLength: 4 }),
        hostile,
        fc.array(safe, { maxLength: 4 }),
        (before, bad, after) => {
          const css = [...before, bad, ...after].join('\n');
          expect(checkCustomCss(css).length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('accepts every stylesheet of safe parts', () => {
    fc.assert(
      fc.property(fc.array(safe, { maxLength: 8 }), (parts) => {
        expect(checkCustomCss(parts.join('\n'))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('accepts nothing that, decoded, imports, runs code or addresses anything but an upload', () => {
    const part = fc.oneof(safe, hostile, fc.string({ maxLength: 40 }));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        const css = parts.join('\n');
        if (checkCustomCss(css).length > 0) return;
        const text = decoded(css);
        for (const pattern of LOADS_OR_RUNS)
          expect({ css, hit: pattern.test(text) }).toEqual({ css, hit: false });
      }),
      { numRuns: 500 },
    );
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (css) => {
        expect(Array.isArray(checkCustomCss(css))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("scopeCustomCss: the stylesheet reaches the workspace's regions only", () => {
  it("puts every selector under [data-workspace-style], so header {} is not a modal's header", () => {
    expect(scopeCustomCss('header { color: #fff; background: #0b3d5c }')).toBe(
      '[data-workspace-style] header{color:#fff;background:#0b3d5c}',
    );
    expect(scopeCustomCss('.x > a:hover, h1::before { color: red }')).toBe(
      '[data-workspace-style] .x>a:hover,[data-workspace-style] h1::before{color:red}',
    );
    expect(scopeCustomCss('@media (max-width: 600px) { main p { color: red } }')).toBe(
      '@media (max-width:600px){[data-workspace-style] main p{color:red}}',
    );
  });

  it('makes :root, html and body the region itself; leaves keyframes and nested rules', () => {
    expect(scopeCustomCss(':root { --brand: #123 } body.dark header, html { color: red }')).toBe(
      '[data-workspace-style]{--brand: #123 }[data-workspace-style].dark header,[data-workspace-style]{color:red}',
    );
    expect(scopeCustomCss('@keyframes spin { from { opacity: 0 } 50% { opacity: .5 } }')).toBe(
      '@keyframes spin{from{opacity:0}50%{opacity:.5}}',
    );
    expect(scopeCustomCss('.card { color: blue; & .title { color: green } }')).toBe(
      '[data-workspace-style] .card{color:blue;& .title{color:green}}',
    );
    expect(scopeCustomCss(`@font-face { font-family: X; src: url(${UPLOAD}) }`)).toBe(
      `@font-face{font-family:X;src:url(${UPLOAD})}`,
    );
    expect(scopeCustomCss('')).toBe('');
  });

  it('scopes every rule of any accepted stylesheet (no selector left at the top)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('header', 'main', '.a', '#b', 'a:hover', 'ul > li', '*', 'body'), {
          minLength: 1,
          maxLength: 4,
        }),
        (parts) => {
          const out = scopeCustomCss(`${parts.join(', ')} { color: red }`);
          const selectors = out.slice(0, out.indexOf('{')).split(',');
          expect(selectors.every((s) => s.startsWith('[data-workspace-style]'))).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });
});
