import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
 * The web lib files and contract rules that only the member and permission pages use. Nothing
 * the shared chunk imports may match (lib/members.ts, lib/permission-paths.ts and the contract's
 * member and permission rules are used by the settings layout and the members API hooks): the
 * shared chunk would import this one and every page, the dashboard too, would load it.
 * `sharedChunkStandsAlone` fails the build when that happens.
 */
const SETTINGS_MODULES =
  /[\\/](?:apps[\\/]web[\\/]src[\\/](?:lib[\\/](?:member-[^\\/]*|invite-form|list-filters|list-skeleton|all-pages|dates|data-export[^\\/]*)\.tsx?|features[\\/]permissions[\\/])|packages[\\/]contract[\\/]src[\\/]permission-resolution\.ts)/;

/**
 * The billing feature (the gate and the billing pages). Not the contract's billing rules: the
 * register page's plan choice (lib/billing-store.ts) uses them, so they are shared.
 */
const BILLING_MODULES = /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]billing[\\/]/;

/**
 * Every page needs the shared chunk, so index.html names it as a modulepreload: it downloads
 * beside the entry script instead of after it, and the first page then waits only for its own
 * (small) chunks.
 */
function preloadSharedChunk(): Plugin {
  let base = '/';
  return {
    name: 'portolan:preload-shared-chunk',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const shared = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.name === SHARED_CHUNK && !c.isEntry,
        );
        if (!shared) return;
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${shared.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/**
 * The build fails when the shared chunk (loaded by every page) imports the settings or billing
 * chunk: a module matched by SETTINGS_MODULES or BILLING_MODULES that shared code uses. The
 * dashboard then loads the member pages' code (it did, 10 KB, until this check).
 */
function sharedChunkStandsAlone(): Plugin {
  return {
    name: 'portolan:shared-chunk-stands-alone',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const shared = chunks.find((c) => c.name === SHARED_CHUNK && !c.isEntry);
      const grouped = chunks.filter((c) => c.name === 'settings' || c.name === 'billing');
      for (const group of grouped) {
        if (!shared?.imports.includes(group.fileName)) continue;
        const used = Object.keys(group.modules).filter((id) =>
          this.getModuleInfo(id)?.importers.some((i) => shared.modules[i]),
        );
        this.error(
          `The shared chunk imports the ${group.name} chunk, so every page loads it. Modules of ${group.name} that shared code imports: ${used.join(', ') || '(see the importers of its modules)'}`,
        );
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
    preloadSharedChunk(),
    noZodInBundle(),
    sharedChunkStandsAlone(),
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
