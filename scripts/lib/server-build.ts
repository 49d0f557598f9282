// Is apps/api/dist current? Bundle the server when it is missing or older than its sources.
//
// `npm start` runs the bundle, not the TypeScript sources: Node's own type stripping (a
// WebAssembly compiler loaded into every process) and a couple of thousand module records cost
// each server process tens of megabytes, and the idle target is 150 MB (issue 12). Packages from
// node_modules stay outside the bundle (loaded as they are); ours and @portolan/contract go in.
import { cpSync, existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { API_DIR, ROOT } from './paths.ts';
import { newestFile } from './web-build.ts';

export const SERVER_DIST = path.join(API_DIR, 'dist');
/** What `npm start` runs. */
export const SERVER_BUNDLE = path.join(SERVER_DIST, 'server.js');
/**
 * V8's young generation grows to 64 MB per semi-space on a machine with this much memory, and
 * keeps it after the start-up's burst of allocation; 8 MB holds a request's garbage with room to
 * spare and keeps an idle process small (issue 12). The cluster's processes inherit it.
 */
export const SERVER_NODE_OPTIONS = ['--max-semi-space-size=8'];

const SERVER_INPUTS = [
  path.join(API_DIR, 'src'),
  path.join(API_DIR, 'package.json'),
  path.join(ROOT, 'packages', 'contract', 'src'),
  import.meta.filename,
];

/** Why the server needs bundling, or undefined when apps/api/dist is current. */
export function serverBuildReason(): string | undefined {
  if (!existsSync(SERVER_BUNDLE)) return `${path.relative(ROOT, SERVER_BUNDLE)} is missing`;
  const built = statSync(SERVER_BUNDLE).mtimeMs;
  const newest = newestFile(SERVER_INPUTS);
  if (newest && newest.mtimeMs > built) {
    return `${path.relative(ROOT, newest.file)} is newer than the bundle`;
  }
  return undefined;
}

/** Every bare import (a package) stays outside the bundle, but for our workspace's own. */
const packagesOutside: Plugin = {
  name: 'packages-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@portolan/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Bundles src/server.ts (and the chunks it loads later) into apps/api/dist, with migrations. */
export async function buildServer(): Promise<void> {
  rmSync(SERVER_DIST, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(API_DIR, 'src', 'server.ts')],
    outdir: SERVER_DIST,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    plugins: [packagesOutside],
    sourcemap: true,
    logLevel: 'warning',
  });
  // db/client.ts finds them beside itself (import.meta.dirname), which in the bundle is dist/.
  cpSync(path.join(API_DIR, 'src', 'db', 'migrations'), path.join(SERVER_DIST, 'migrations'), {
    recursive: true,
  });
}

/** Bundle the server when it is stale; resolves false when bundling failed. */
export async function ensureServerBuild(log: (line: string) => void = console.log) {
  const reason = serverBuildReason();
  if (!reason) {
    log('server: apps/api/dist is up to date');
    return true;
  }
  log(`server: bundling (${reason})`);
  const started = Date.now();
  try {
    await buildServer();
  } catch (err) {
    log(`server: bundling failed: ${(err as Error).message}`);
    return false;
  }
  log(`server: bundled in ${Date.now() - started} ms`);
  return true;
}
