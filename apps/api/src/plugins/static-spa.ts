import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, isPublicPage } from '@portolan/contract';
import { errorAnswer } from '../lib/errors.ts';
import { declaredScope } from '../modules/access/index.ts';
import { sendError } from './errors.ts';

/** First path segments of the API, its documents and the uploads: never the web app. */
const API_SEGMENTS = new Set(['v1', 'docs', 'uploads']);

/**
 * Whether a path belongs to the API side (answered with the JSON 404 when no route matches):
 * its first segment, decoded and in any case, is one of API_SEGMENTS (`/V1/x`, `//v1`, `/%76%31`).
 */
export function isApiPath(url: string): boolean {
  const first = (url.split('?')[0] ?? '').split('/').find((s) => s !== '') ?? '';
  let segment = first;
  try {
    segment = decodeURIComponent(first);
  } catch {
    // left as sent: it cannot equal a name of API_SEGMENTS anyway
  }
  return API_SEGMENTS.has(segment.toLowerCase());
}

/**
 * Serves the built web app: hashed assets with a year-long cache, index.html never cached, and
 * every other GET that is not an API path answered with index.html (the SPA routes it).
 *
 * The build writes `<file>.br` and `<file>.gz` beside every text file over 1 KiB (the
 * `precompress` plugin of apps/web/vite.config.ts). Each file, index.html of the fallback
 * included, is sent as the brotli copy when the request accepts `br`, else the gzip copy when it
 * accepts `gzip`, else as is; with `Content-Encoding`, the original's `Content-Type`, the same
 * caching, and `Vary: Accept-Encoding` on every variant. The copies are never routes of their
 * own, and nothing here compresses at request time.
 *
 * The fallback sends index.html to the public pages (`isPublicPage`) and app.html, when the build
 * made one, to every other path: the same page, which also preloads the signed-in layout's code,
 * so a signed-in page does not wait for the entry script to ask for it.
 */
export async function registerSpa(app: FastifyInstance, distDir: string): Promise<void> {
  // The file routes are the library's: declared here. The fallback below is in the same scope, as
  // it sends index.html with the library's `reply.sendFile`.
  await app.register(
    declaredScope({ public: 'the web app is public; it signs in through the API' }, (scope) =>
      spa(scope, distDir),
    ),
  );
}

async function spa(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  const hasAppHtml = fs.existsSync(path.join(distDir, 'app.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ distDir }, 'web app not built: only the API is served (run `npm run build`)');
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (!isApiPath(url) && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      const assetLike = /\.[a-z0-9]{2,5}$/i.test(url);
      if (!assetLike) {
        const page = hasAppHtml && !isPublicPage(url) ? 'app.html' : 'index.html';
        return reply.header('cache-control', 'no-cache').type('text/html').sendFile(page);
      }
    }
    return sendError(reply, errorAnswer(ErrorCode.NOT_FOUND, `No route ${request.method} ${url}.`));
  });
}
