// engine-parity: engine-independent, runs once, on PGlite
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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

describe.runIf(testEngine === 'pglite')('ARCHITECTURE.md', () => {
  it('names only files that exist in "Where each rule lives"', () => {
    const paths = tablePaths(fs.readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((p) => !exists(p.file))).toEqual([]);
  });
});
