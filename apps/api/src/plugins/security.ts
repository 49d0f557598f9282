import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { ErrorCode } from '@portolan/contract';
import { analyticsSink } from '../modules/system/index.ts';
import { databaseRateLimitStore } from './rate-limit-store.ts';

/**
 * Security headers on every answer (CSP without inline scripts, HSTS, nosniff, no framing) and
 * the rate limiter, which is off globally and switched on per route with `config.rateLimit`; its
 * counters are in the database, shared by every instance (rate-limit-store.ts).
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  // The analytics sink's origin, only when analytics is on and configured (spec §1).
  const sink = analyticsSink(app.ctx.config);
  await app.register(helmet, {
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
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });

  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(app.ctx.db, app.ctx.clock),
    errorResponseBuilder: (_req, ctx) =>
      new AppError(
        429,
        ErrorCode.RATE_LIMITED,
        `Too many requests. Try again in ${Math.max(1, Math.ceil(ctx.ttl / 60_000))} minute(s).`,
      ),
  });
}
