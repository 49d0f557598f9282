// mantine-styles.ts names the Mantine stylesheets by hand. This recomputes the set: the Mantine
// components the web app's source imports (and those that @mantine/notifications, modals and
// nprogress import), closed over what each of those components imports in turn, kept to those
// with a stylesheet of their own. A new component used without its stylesheet renders unstyled;
// this test names it instead.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB_SRC = path.resolve(import.meta.dirname, '..');
const MODULES = path.resolve(WEB_SRC, '../../../node_modules/@mantine');
const CORE_ESM = path.join(MODULES, 'core/esm');
const STYLES = path.join(MODULES, 'core/styles');
/** Folders of @mantine/core's ESM build that hold components (each a folder of its own). */
const COMPONENT_ROOTS = ['components', 'utils'].map((d) => path.join(CORE_ESM, d));

function filesUnder(dir: string, test: (file: string) => boolean): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && test(file) ? [file] : [];
  });
}

/** Names imported from '@mantine/core' in these files. */
function namesImportedFromCore(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]@mantine\/core['"]/g)) {
      for (const part of m[1]!.split(',')) {
        const name = part
          .replace(/^\s*type\s+/, '')
          .split(/\s+as\s+/)[0]!
          .trim();
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/** The module file each export of @mantine/core comes from (per its index.mjs). */
function moduleOfExport(): Map<string, string> {
  const index = fs.readFileSync(path.join(CORE_ESM, 'index.mjs'), 'utf8');
  const map = new Map<string, string>();
  for (const m of index.matchAll(/import \{([^}]*)\} from "(\.\/(?:components|utils)\/[^"]+)"/g)) {
    for (const name of m[1]!.split(',')) map.set(name.trim(), path.join(CORE_ESM, m[2]!));
  }
  return map;
}

/**
 * The component folders whose class names (their `*.module.mjs`) the given modules reach through
 * their imports, transitively: a folder of which only a helper is imported (NavLink uses
 * Accordion's chevron) needs no stylesheet.
 */
function styledFoldersReached(start: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const folders = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !fs.existsSync(file)) return;
    seen.add(file);
    const root = COMPONENT_ROOTS.find((r) => file.startsWith(r + path.sep));
    if (root && file.endsWith('.module.mjs')) {
      folders.add(path.relative(root, file).split(path.sep)[0]!);
    }
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*["'](\.[^"']+)["']/g)) {
      visit(path.resolve(path.dirname(file), m[1]!));
    }
  };
  for (const file of start) visit(file);
  return folders;
}

function listedStylesheets(): string[] {
  const text = fs.readFileSync(path.join(WEB_SRC, 'app/mantine-styles.ts'), 'utf8');
  return [...text.matchAll(/import '@mantine\/core\/styles\/([^']+)\.css';/g)].map((m) => m[1]!);
}

describe('the Mantine stylesheets the web app loads', () => {
  it('are exactly those of the components it renders, with the base files first', () => {
    const ownSource = filesUnder(WEB_SRC, (f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
    const packages = ['notifications', 'modals', 'nprogress'].flatMap((p) =>
      filesUnder(path.join(MODULES, p, 'esm'), (f) => f.endsWith('.mjs')),
    );
    const modules = moduleOfExport();
    const used = [...namesImportedFromCore([...ownSource, ...packages])].flatMap((name) => {
      const file = modules.get(name);
      return file ? [file] : [];
    });
    const needed = [...styledFoldersReached(used)]
      .filter((folder) => fs.existsSync(path.join(STYLES, `${folder}.css`)))
      .sort();

    const listed = listedStylesheets();
    expect(listed.slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
    expect([...new Set(listed.slice(3))].sort()).toEqual(needed);
    expect(new Set(listed).size).toBe(listed.length);
  });
});
