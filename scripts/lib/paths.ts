// Where things are, independent of the current working directory.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The monorepo root (this file lives in scripts/lib/). */
export const ROOT = path.resolve(import.meta.dirname, '..', '..');

export const WEB_DIR = path.join(ROOT, 'apps', 'web');
export const API_DIR = path.join(ROOT, 'apps', 'api');
export const E2E_DIR = path.join(ROOT, 'e2e');
export const SERVER_ENTRY = path.join(API_DIR, 'src', 'server.ts');

/**
 * The JavaScript file behind a package's command-line binary, found the way Node would find the
 * package from `fromDir` (walking up through node_modules folders). It is run with
 * `process.execPath`, so every tool runs on the pinned Node whatever `node` is first on PATH.
 */
export function binScript(pkg: string, bin: string, fromDir: string = ROOT): string {
  let dir = fromDir;
  for (;;) {
    const manifest = path.join(dir, 'node_modules', pkg, 'package.json');
    if (existsSync(manifest)) {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as {
        bin?: string | Record<string, string>;
      };
      const rel = typeof json.bin === 'string' ? json.bin : json.bin?.[bin];
      if (!rel) throw new Error(`${pkg} has no binary named ${bin}`);
      return path.join(path.dirname(manifest), rel);
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${pkg} is not installed (run npm ci)`);
    dir = parent;
  }
}

/** How to call npm: the npm that runs us when there is one (npm run ...), else `npm` on PATH. */
export function npmCommand(args: string[]): { cmd: string; args: string[] } {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.c?js$/.test(execPath) && existsSync(execPath)) {
    return { cmd: process.execPath, args: [execPath, ...args] };
  }
  return { cmd: 'npm', args };
}
