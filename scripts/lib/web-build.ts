// Is apps/web/dist current? Build it when it is missing or older than its sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { npmCommand, ROOT, WEB_DIR } from './paths.ts';
import { formatDuration, run } from './proc.ts';

export const WEB_INDEX = path.join(WEB_DIR, 'dist', 'index.html');

/** Files and folders whose change means the bundle must be rebuilt. */
export const WEB_INPUTS = [
  path.join(WEB_DIR, 'src'),
  path.join(WEB_DIR, 'public'),
  path.join(WEB_DIR, 'index.html'),
  path.join(WEB_DIR, 'vite.config.ts'),
  path.join(WEB_DIR, 'postcss.config.cjs'),
  path.join(WEB_DIR, 'postcss.config.mjs'),
  path.join(WEB_DIR, 'postcss.config.js'),
  path.join(WEB_DIR, 'package.json'),
  path.join(ROOT, 'packages', 'contract', 'src'),
];

// Tests and test helpers are not part of the bundle; editing them must not force a rebuild.
const NOT_BUNDLED = /(\.(test|spec)\.[cm]?[jt]sx?$)|^(__tests__|test|tests|node_modules)$/;

export interface Newest {
  file: string;
  mtimeMs: number;
}

/** The most recently modified file under the given paths (missing paths are skipped). */
export function newestFile(paths: string[]): Newest | undefined {
  let newest: Newest | undefined;
  const visit = (p: string) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) {
        if (!NOT_BUNDLED.test(name)) visit(path.join(p, name));
      }
    } else if (!newest || st.mtimeMs > newest.mtimeMs) {
      newest = { file: p, mtimeMs: st.mtimeMs };
    }
  };
  for (const p of paths) visit(p);
  return newest;
}

/** Why the web app needs building, or undefined when apps/web/dist is current. */
export function webBuildReason(index = WEB_INDEX, inputs = WEB_INPUTS): string | undefined {
  if (!existsSync(index)) return `${path.relative(ROOT, index)} is missing`;
  const built = statSync(index).mtimeMs;
  const newest = newestFile(inputs);
  if (newest && newest.mtimeMs > built) {
    return `${path.relative(ROOT, newest.file)} is newer than ${path.relative(ROOT, index)}`;
  }
  return undefined;
}

/**
 * Build the web app (`npm run build -w @portolan/web`, output shown) when it is stale.
 * Resolves true when the bundle is current afterwards; false when the build failed.
 */
export async function ensureWebBuild(log: (line: string) => void = console.log): Promise<boolean> {
  const reason = webBuildReason();
  if (!reason) {
    log('web app: apps/web/dist is up to date');
    return true;
  }
  log(`web app: building (${reason})`);
  const started = Date.now();
  const npm = npmCommand(['run', 'build', '-w', '@portolan/web']);
  const code = await run(npm.cmd, npm.args, { cwd: ROOT });
  if (code !== 0) {
    log(`web app: build failed (exit code ${code})`);
    return false;
  }
  if (!existsSync(WEB_INDEX)) {
    log(`web app: the build finished but ${path.relative(ROOT, WEB_INDEX)} does not exist`);
    return false;
  }
  log(`web app: built in ${formatDuration(Date.now() - started)}`);
  return true;
}
