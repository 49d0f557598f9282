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
 * preloads it for every page; a signed-in page also needs SHARED_CHUNK (menus, modals, tables…),
 * which app.html preloads (see `firstScreenHtml`). /login no longer downloads ~65 KB (brotli) of
 * code it never runs before it can paint.
 */
const PUBLIC_CHUNK = 'public';
/** The modules the public first screens start from (their static imports are public). */
const PUBLIC_ENTRIES =
  /[\\/]apps[\\/]web[\\/]src[\\/](?:app[\\/]layout[\\/](?:AuthLayout|GlobalUi)\.tsx|features[\\/]auth[\\/]pages[\\/][^\\/]+Page\.tsx)$/;
/** The layout of the signed-in pages: app.html preloads its chunk. */
const APP_LAYOUT = /[\\/]apps[\\/]web[\\/]src[\\/]app[\\/]layout[\\/]AppLayout\.tsx$/;

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
 * Splits the shared group in two: a module goes to PUBLIC_CHUNK when a public first screen
 * (PUBLIC_ENTRIES) reaches it by static imports, else to SHARED_CHUNK. The plugin notes the entry
 * modules once the module graph is complete; the `name` function of the group walks their static
 * imports on its first call of a chunking pass.
 */
function publicSplit() {
  let entries: string[] = [];
  const plugin: Plugin = {
    name: 'portolan:public-split',
    apply: 'build',
    buildEnd() {
      entries = [...this.getModuleIds()].filter((id) => PUBLIC_ENTRIES.test(id));
      if (entries.length === 0) this.error('No public entry module found (PUBLIC_ENTRIES).');
    },
  };
  let needed: Set<string> | null = null;
  const name = (id: string, ctx: Rolldown.ChunkingContext) => {
    needed ??= staticallyNeeded(entries, (m) => ctx.getModuleInfo(m));
    return needed.has(id) ? PUBLIC_CHUNK : SHARED_CHUNK;
  };
  return { plugin, name };
}
const split = publicSplit();

/**
 * The first screen's code downloads beside the entry script instead of after it:
 * - index.html (public pages) names PUBLIC_CHUNK as a modulepreload: every page needs it;
 * - app.html, a copy for the signed-in pages (the server sends it for every path that is not a
 *   public page, `apps/api/src/plugins/static-spa.ts`), also names SHARED_CHUNK and the app
 *   layout's chunk with what it imports, and the layout's stylesheets.
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
        const layout = chunks.find((c) => c.facadeModuleId && APP_LAYOUT.test(c.facadeModuleId));
        const shared = chunks.find((c) => c.name === SHARED_CHUNK && !c.isEntry);
        const publicChunks = chunks.filter((c) => c.name === PUBLIC_CHUNK).map((c) => c.fileName);
        if (!entry || !layout || !shared) this.error('no entry, app layout or shared chunk');
        // The layout, the shared chunk and every chunk they import (the entry and the public
        // chunk are named by index.html already).
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
        add(shared.fileName);
        add(layout.fileName);
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
 * The build fails when a chunk every page loads imports one it should not: the shared chunk
 * the settings or billing chunk (the dashboard then loads the member pages' code: it did, 10 KB,
 * until this check), or the public chunk or a public first screen's chunk any of those (the
 * sign-in page then loads the signed-in pages' code).
 */
function firstLoadStandsAlone(): Plugin {
  return {
    name: 'portolan:first-load-stands-alone',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const rules = [
        ...chunks
          .filter((c) => c.name === SHARED_CHUNK && !c.isEntry)
          .map((c) => ({ chunk: c, banned: ['settings', 'billing'] })),
        ...chunks
          .filter(
            (c) =>
              (c.name === PUBLIC_CHUNK && !c.isEntry) ||
              (c.facadeModuleId && PUBLIC_ENTRIES.test(c.facadeModuleId)),
          )
          .map((c) => ({ chunk: c, banned: [SHARED_CHUNK, 'settings', 'billing'] })),
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
            // What the billing pages and the subscription gate share stays off the first load:
            // it comes with the gate, on the first signed-in page.
            {
              name: 'billing',
              test: BILLING_MODULES,
              minShareCount: 2,
              priority: 1.6,
              includeDependenciesRecursively: false,
            },
            { name: split.name, minShareCount: 2, priority: 1 },
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
