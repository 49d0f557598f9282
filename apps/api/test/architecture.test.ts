// engine-parity: engine-independent, runs once, on PGlite
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  boundaryProblem,
  cycleThrough,
  readModuleGraph,
} from '../../../scripts/eslint-boundaries.js';
import { testEngine } from './support/database.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** Where a path written in ARCHITECTURE.md may be relative to. */
const BASES = ['', 'apps/api/src', 'apps/web/src', 'apps/api'];

/** Backticked file paths of the "Where each rule lives" table, each with its row's rule. */
function tablePaths(markdown: string): { rule: string; file: string }[] {
  const section = markdown.split('### Where each rule lives')[1]?.split('\n### ')[0] ?? '';
  const found: { rule: string; file: string }[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || /^-+$/.test(cells[1] ?? '') || cells[1] === 'rule') continue;
    let dir = '';
    for (const [, token] of (cells[2] ?? '').matchAll(/`([^`]+)`/g)) {
      const file = token!.split(/\s/)[0]!;
      if (!/\.(ts|tsx|js|md|sql)$/.test(file)) continue;
      // A bare file name is a sibling of the path named before it in the same cell.
      const full = file.includes('/') ? file : path.posix.join(dir, file);
      dir = path.posix.dirname(full);
      found.push({ rule: cells[1]!, file: full });
    }
  }
  return found;
}

const exists = (file: string) => BASES.some((base) => fs.existsSync(path.join(ROOT, base, file)));

/** Functions (and classes) the text names as `name(` or `object.name(`, by their last name. */
export function namedFunctions(markdown: string): string[] {
  const names = [...markdown.matchAll(/`(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\(/g)];
  return [...new Set(names.map((m) => m[1]!))];
}

/** Where the tree's source lives: every .ts/.tsx/.js of the packages, apps, scripts and e2e. */
function sourceText(): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', 'dist', 'data', 'migrations'].includes(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|tsx|js)$/.test(entry.name)) texts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  for (const top of ['apps', 'packages', 'scripts', 'e2e']) walk(path.join(ROOT, top));
  return texts.join('\n');
}

/** Whether `name` is defined (a function, class, const/let, or a property holding a function). */
export function isDefined(source: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  return new RegExp(
    `\\b(?:function\\*?\\s+${n}|class\\s+${n}|(?:const|let|var)\\s+${n})\\b|` +
      `(?:^|[\\s{,])${n}\\s*[:=]\\s*(?:async\\s*)?(?:\\(|function\\b)`,
    'm',
  ).test(source);
}

describe.runIf(testEngine === 'pglite')('ARCHITECTURE.md', () => {
  it('names only files that exist in "Where each rule lives"', () => {
    const paths = tablePaths(fs.readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((p) => !exists(p.file))).toEqual([]);
  });

  it('names only functions that exist in the tree', () => {
    const names = namedFunctions(fs.readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
    expect(names.length).toBeGreaterThan(5);
    const source = sourceText();
    expect(names.filter((name) => !isDefined(source, name))).toEqual([]);
    // The check itself: a name nobody defines is caught.
    expect(isDefined(source, 'lockTenant')).toBe(true);
    expect(isDefined(source, 'noSuchFunctionAnywhere')).toBe(false);
  });
});

describe.runIf(testEngine === 'pglite')('import boundaries (scripts/eslint-boundaries.js)', () => {
  it('finds no cycle between the API modules, and would name one', () => {
    const graph = readModuleGraph();
    expect(graph.get('access')).toEqual(new Set());
    for (const [name, imports] of graph) {
      for (const to of imports)
        expect({ name, cycle: cycleThrough(graph, to, name) }).toEqual({ name, cycle: null });
    }
    const cyclic = new Map([
      ['access', new Set(['auth'])],
      ['auth', new Set(['users'])],
      ['users', new Set(['access'])],
    ]);
    expect(cycleThrough(cyclic, 'auth', 'access')).toEqual(['auth', 'users', 'access']);
  });

  it('refuses the directions ARCHITECTURE.md forbids', () => {
    const web = 'apps/web/src/';
    const api = 'apps/api/src/';
    expect(boundaryProblem(`${web}features/a/x.tsx`, `${web}app/route.ts`)).toMatch(/imports app/);
    expect(boundaryProblem(`${web}lib/x.ts`, `${web}features/a/y.ts`)).toMatch(/lib\/ imports/);
    expect(boundaryProblem(`${web}app/x.tsx`, `${web}features/a/y.ts`)).toBeNull();
    for (const from of ['plugins/x.ts', 'seed/x.ts', 'context.ts']) {
      expect(boundaryProblem(`${api}${from}`, `${api}modules/auth/tokens.ts`)).toMatch(/face/);
      expect(boundaryProblem(`${api}${from}`, `${api}modules/auth/index.ts`)).toBeNull();
    }
  });
});
