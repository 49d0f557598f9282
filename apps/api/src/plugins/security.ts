import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { ErrorCode } from '@portolan/contract';
import { analyticsSink } from '../modules/system/index.ts';
import { databaseRateLimitStore } from './rate-limit-store.ts';

/**
 * The headers helmet sets for these options, worked out once: helmet (and @fastify/helmet) would
 * parse the policy and build every header again for each request, a twentieth of the time of a
 * small authenticated read (issue 12's profile). Nothing in them depends on the request.
 */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let error: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => void (error = err));
  if (error) throw error;
  return headers;
}

/**
 * Security headers on every answer (CSP without inline scripts, HSTS, nosniff, no framing) and
 * the rate limiter, which is off globally and switched on per route with `config.rateLimit`; its
 * counters are in the database, shared by every instance (rate-limit-store.ts).
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  // The analytics sink's origin, only when analytics is on and configured (spec §1).
  const sink = analyticsSink(app.ctx.config);
  // A module home posts its launch token to the module's own app (MODULE_URLS, issue 21 item 4).
  const moduleApps = new Set(
    Object.values(app.ctx.config.moduleUrls).map((u) => new URL(u).origin),
  );
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(sink ? [new URL(sink.url).origin] : [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'", ...moduleApps],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  // Set before the route runs, so a route may still replace one (the sandbox's card page and
  // the uploads set their own Content-Security-Policy).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(app.ctx.db, app.ctx.clock),
    errorResponseBuilder: (_req, ctx) =>
      new AppError(
        ErrorCode.RATE_LIMITED,
        `Too many requests. Try again in ${Math.max(1, Math.ceil(ctx.ttl / 60_000))} minute(s).`,
      ),
  });
}
