import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { staticallyNeeded } from './build/public-reach.ts';
import { defineConfig, type Plugin, type Rolldown } from 'vite';

const apiTarget = 'http://127.0.0.1:3000';
const contractDir = decodeURIComponent(
  new URL('../../packages/contract/', import.meta.url).pathname,
);

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text files worth compressing; smaller ones gain nothing over a packet's worth of headers. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest|map)$/;
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip, best level) next to every
 * compressible file of the build over MIN_BYTES, once, at build time. The API serves them by
 * `Accept-Encoding` (apps/api/src/plugins/static-spa.ts), so no request pays for compressing.
 * A compressed copy that would not be smaller is not written.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portolan:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const files = (await readdir(outDir, { recursive: true }))
        .map((f) => path.join(outDir, f))
        .filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (file) => {
          if (!(await stat(file)).isFile()) return;
          const data = await readFile(file);
          if (data.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < data.length) await writeFile(`${file}.br`, br);
          if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/** The chunk of code that the pages share (see `codeSplitting` below). */
const SHARED_CHUNK = 'shared';
/**
 * The part of the shared code the public pages need: what the sign-in layout, the sign-in,
 * registration and password pages and the toasts (GlobalUi, on every page) import. index.html
 * preloads it for every page. /login no longer downloads ~65 KB (brotli) of code it never runs
 * before it can paint.
 */
const PUBLIC_CHUNK = 'public';
/** The modules the public first screens start from (their static imports are public). */
const PUBLIC_ENTRIES =
  /[\\/]apps[\\/]web[\\/]src[\\/](?:app[\\/]layout[\\/](?:AuthLayout|GlobalUi)\.tsx|features[\\/]auth[\\/]pages[\\/][^\\/]+Page\.tsx)$/;
/**
 * The part of the shared code the first signed-in screen needs beyond PUBLIC_CHUNK: what the app
 * layout, the subscription gate and the dashboard reach by static imports. app.html preloads it
 * (see `firstScreenHtml`); what only the other pages share (tables, forms, modals…) stays in
 * SHARED_CHUNK, which comes with the first of them. The dashboard no longer waits on ~28 KB
 * (brotli) of their code.
 */
const FIRST_SCREEN_CHUNK = 'first-screen';
/**
 * The modules the first signed-in screen starts from: the layout of the signed-in pages, the
 * subscription gate (a pathless route around every signed-in page) and the dashboard, where sign-in
 * and `/` land (3 KB brotli on the other pages). app.html preloads their chunks: without that the
 * router asks for them only once the entry has run, one more round trip before the first paint.
 */
const FIRST_SCREEN_ENTRIES = [
  /[\\/]apps[\\/]web[\\/]src[\\/]app[\\/]layout[\\/]AppLayout\.tsx$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]billing[\\/]gate\.tsx$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]dashboard[\\/]pages[\\/]DashboardPage\.tsx$/,
];

/**
 * The web lib files and contract rules that only the member and permission pages use. Nothing
 * the shared chunk imports may match (lib/members.ts, lib/permission-paths.ts and the contract's
 * member and permission rules are used by the settings layout and the members API hooks): the
 * shared chunk would import this one and every page, the dashboard too, would load it.
 * `firstLoadStandsAlone` fails the build when that happens.
 */
const SETTINGS_MODULES =
  /[\\/](?:apps[\\/]web[\\/]src[\\/](?:lib[\\/](?:member-[^\\/]*|invite-form|list-filters|list-skeleton|all-pages|dates|data-export[^\\/]*)\.tsx?|features[\\/]permissions[\\/])|packages[\\/]contract[\\/]src[\\/]permission-resolution\.ts)/;

/**
 * The billing feature (the gate and the billing pages). Not the contract's billing rules: the
 * register page's plan choice (lib/billing-store.ts) uses them, so they are shared.
 */
const BILLING_MODULES = /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]billing[\\/]/;

/**
 * @simplewebauthn/browser, the passkey prompts (src/lib/passkeys.ts imports it when a ceremony
 * starts): a chunk of its own. `firstLoadStandsAlone` fails the build when the entry or a first
 * screen's chunk imports it statically (every visit would then download it).
 */
const WEBAUTHN_CHUNK = 'webauthn';
const WEBAUTHN_MODULES = /[\\/]node_modules[\\/]@simplewebauthn[\\/]browser[\\/]/;

/**
 * Splits the shared code in three by what reaches it through static imports: a module a public
 * first screen (PUBLIC_ENTRIES) needs goes to PUBLIC_CHUNK, else one the first signed-in screen
 * (FIRST_SCREEN_ENTRIES) needs to FIRST_SCREEN_CHUNK, else to SHARED_CHUNK. The plugin notes the
 * entry modules once the module graph is complete; `chunkOf` walks their static imports on its
 * first call of a chunking pass. Each chunk is its own group (`capturing`), the public one first: a
 * group also takes the dependencies of what it captures, and those are public ones more often
 * than not.
 */
function sharedSplit() {
  let publicEntries: string[] = [];
  let firstScreenEntries: string[] = [];
  const plugin: Plugin = {
    name: 'portolan:shared-split',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      publicEntries = ids.filter((id) => PUBLIC_ENTRIES.test(id));
      firstScreenEntries = ids.filter((id) => FIRST_SCREEN_ENTRIES.some((re) => re.test(id)));
      if (publicEntries.length === 0) this.error('No public entry module found (PUBLIC_ENTRIES).');
      const missing = FIRST_SCREEN_ENTRIES.filter(
        (re) => !firstScreenEntries.some((id) => re.test(id)),
      );
      if (missing.length > 0)
        this.error(`No module for FIRST_SCREEN_ENTRIES ${missing.join(', ')}`);
    },
  };
  let publicNeeds: Set<string> | null = null;
  let firstScreenNeeds: Set<string> | null = null;
  const chunkOf = (id: string, ctx: Rolldown.ChunkingContext) => {
    const lookup = (m: string) => ctx.getModuleInfo(m);
    publicNeeds ??= staticallyNeeded(publicEntries, lookup);
    firstScreenNeeds ??= staticallyNeeded(firstScreenEntries, lookup);
    if (publicNeeds.has(id)) return PUBLIC_CHUNK;
    return firstScreenNeeds.has(id) ? FIRST_SCREEN_CHUNK : SHARED_CHUNK;
  };
  /** A group's `name` that captures the modules of `chunk` only. */
  const capturing = (chunk: string) => (id: string, ctx: Rolldown.ChunkingContext) =>
    chunkOf(id, ctx) === chunk ? chunk : null;
  return { plugin, chunkOf, capturing };
}
const split = sharedSplit();

/**
 * The first screen's code downloads beside the entry script instead of after it:
 * - index.html (public pages) names PUBLIC_CHUNK as a modulepreload: every page needs it;
 * - app.html, a copy for the signed-in pages (the server sends it for every path that is not a
 *   public page, `apps/api/src/plugins/static-spa.ts`), also names the chunks of
 *   FIRST_SCREEN_ENTRIES and what they import (FIRST_SCREEN_CHUNK among them), and their
 *   stylesheets.
 */
function firstScreenHtml(): Plugin {
  let base = '/';
  const link = (href: string, rel: 'modulepreload' | 'stylesheet') =>
    rel === 'modulepreload'
      ? `<link rel="modulepreload" crossorigin href="${base}${href}">`
      : `<link rel="stylesheet" crossorigin href="${base}${href}">`;
  return {
    name: 'portolan:first-screen-html',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.name === PUBLIC_CHUNK && !c.isEntry,
        );
        if (!chunk) return;
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${chunk.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const index = bundle['index.html'];
        if (!index || index.type !== 'asset') this.error('index.html is not in the bundle');
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const entry = chunks.find((c) => c.isEntry);
        const firstScreen = FIRST_SCREEN_ENTRIES.map((re) =>
          chunks.find((c) => c.facadeModuleId && re.test(c.facadeModuleId)),
        );
        const publicChunks = chunks.filter((c) => c.name === PUBLIC_CHUNK).map((c) => c.fileName);
        if (!entry) this.error('no entry chunk');
        const missing = FIRST_SCREEN_ENTRIES.filter((_, i) => !firstScreen[i]);
        if (missing.length > 0) this.error(`no chunk of its own for ${missing.join(', ')}`);
        // The first screen's chunks and every chunk they import (the entry and the public chunk
        // are named by index.html already).
        const named = new Set([entry.fileName, ...entry.imports, ...publicChunks]);
        const js: string[] = [];
        const css = new Set<string>();
        const add = (file: string) => {
          if (named.has(file)) return;
          named.add(file);
          const chunk = byFile.get(file);
          if (!chunk) return;
          js.push(file);
          chunk.viteMetadata?.importedCss.forEach((f) => css.add(f));
          chunk.imports.forEach(add);
        };
        firstScreen.forEach((c) => c && add(c.fileName));
        const html = String(index.source);
        const tags = [
          ...js.map((f) => link(f, 'modulepreload')),
          ...[...css].map((f) => link(f, 'stylesheet')),
        ];
        this.emitFile({
          type: 'asset',
          fileName: 'app.html',
          source: html.replace('</head>', `  ${tags.join('\n    ')}\n  </head>`),
        });
      },
    },
  };
}

/**
 * The build fails when a chunk a first screen loads imports one it should not: the shared chunk
 * the settings or billing chunk (every signed-in page then loads the member pages' code: it did,
 * 10 KB, until this check), the first signed-in screen's chunks (FIRST_SCREEN_CHUNK and those of
 * FIRST_SCREEN_ENTRIES) any of those (the dashboard then waits on the other pages' code), or the
 * public chunk or a public first screen's chunk any of those or FIRST_SCREEN_CHUNK (the sign-in
 * page then loads the signed-in pages' code); and the entry or any of those WEBAUTHN_CHUNK.
 */
function firstLoadStandsAlone(): Plugin {
  return {
    name: 'portolan:first-load-stands-alone',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const rules = [
        ...chunks.filter((c) => c.isEntry).map((c) => ({ chunk: c, banned: [WEBAUTHN_CHUNK] })),
        ...chunks
          .filter((c) => c.name === SHARED_CHUNK && !c.isEntry)
          .map((c) => ({ chunk: c, banned: ['settings', 'billing'] })),
        ...chunks
          .filter(
            (c) =>
              (c.name === FIRST_SCREEN_CHUNK && !c.isEntry) ||
              (c.facadeModuleId && FIRST_SCREEN_ENTRIES.some((re) => re.test(c.facadeModuleId!))),
          )
          .map((c) => ({
            chunk: c,
            banned: [SHARED_CHUNK, 'settings', 'billing', WEBAUTHN_CHUNK],
          })),
        ...chunks
          .filter(
            (c) =>
              (c.name === PUBLIC_CHUNK && !c.isEntry) ||
              (c.facadeModuleId && PUBLIC_ENTRIES.test(c.facadeModuleId)),
          )
          .map((c) => ({
            chunk: c,
            banned: [SHARED_CHUNK, FIRST_SCREEN_CHUNK, 'settings', 'billing', WEBAUTHN_CHUNK],
          })),
      ];
      for (const { chunk, banned } of rules) {
        for (const group of chunks.filter((c) => banned.includes(c.name))) {
          if (!chunk.imports.includes(group.fileName)) continue;
          const used = Object.keys(group.modules).filter((id) =>
            this.getModuleInfo(id)?.importers.some((i) => chunk.modules[i]),
          );
          this.error(
            `The ${chunk.name} chunk imports the ${group.name} chunk, so pages that need only the first loads it too. Modules of ${group.name} that ${chunk.name} imports: ${used.join(', ') || '(see the importers of its modules)'}`,
          );
        }
      }
    },
  };
}

/**
 * The build fails when zod reaches a bundle: the web app may use only the contract's zod-free
 * modules (constants, rules, types). A value imported from a module that also defines schemas
 * brings zod (about 100 KB) along, which happened once through the notification constants.
 */
function noZodInBundle(): Plugin {
  return {
    name: 'portolan-no-zod-in-bundle',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const zod = Object.keys(chunk.modules).filter((id) =>
          /[\\/]node_modules[\\/]zod[\\/]/.test(id),
        );
        if (zod.length > 0) {
          const from = Object.keys(chunk.modules).filter((id) => id.startsWith(contractDir));
          this.error(
            `zod is in the chunk ${chunk.fileName}: a value is imported from a contract module that defines schemas. Contract modules in that chunk: ${from.map((id) => path.relative(contractDir, id)).join(', ')}`,
          );
        }
      }
    },
  };
}

export default defineConfig({
  // The API serves dist/ with an SPA fallback, so assets must resolve from the site root.
  base: '/',
  plugins: [
    react(),
    split.plugin,
    firstScreenHtml(),
    noZodInBundle(),
    firstLoadStandsAlone(),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // The shared contract is plain declarations: a module of it that the web app does not
        // use (for example a zod schema file) must not end up in a bundle.
        moduleSideEffects: (id: string) => !id.startsWith(contractDir),
      },
      output: {
        // Few requests on the first load. Left to itself the bundler cuts ~30 chunks of a few
        // hundred bytes to a few KB (every set of pages sharing a module gets one), and a page
        // waits on ~25 of them: over HTTP/1.1 (6 connections) that is several round trips more
        // on a slow phone network. Instead: everything the entry needs is in the entry, what
        // two or more lazy chunks (pages, layouts, GlobalUi) use is one `shared` chunk
        // (preloaded by index.html), and each page keeps only what is its own.
        codeSplitting: {
          groups: [
            // The passkey prompts: loaded when a passkey ceremony starts, never before.
            { name: WEBAUTHN_CHUNK, test: WEBAUTHN_MODULES, priority: 3 },
            { name: 'index', tags: ['$initial'], priority: 2 },
            // What only the members, invitations, rules and roles pages share stays off the first
            // load: the dashboard and the sign-in pages never need it.
            {
              name: 'settings',
              test: SETTINGS_MODULES,
              minShareCount: 2,
              priority: 1.5,
              includeDependenciesRecursively: false,
            },
            // What the billing pages share stays off the first load; what the subscription gate
            // needs of it goes with the first signed-in screen's code.
            {
              name: (id, ctx) => (split.chunkOf(id, ctx) === FIRST_SCREEN_CHUNK ? null : 'billing'),
              test: BILLING_MODULES,
              minShareCount: 2,
              priority: 1.6,
              includeDependenciesRecursively: false,
            },
            { name: split.capturing(PUBLIC_CHUNK), minShareCount: 2, priority: 1.2 },
            { name: split.capturing(FIRST_SCREEN_CHUNK), minShareCount: 2, priority: 1.1 },
            { name: SHARED_CHUNK, minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/v1': { target: apiTarget, changeOrigin: false },
      '/docs': { target: apiTarget, changeOrigin: false },
      '/uploads': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/v1': { target: apiTarget, changeOrigin: false },
      '/docs': { target: apiTarget, changeOrigin: false },
      '/uploads': { target: apiTarget, changeOrigin: false },
    },
  },
});
