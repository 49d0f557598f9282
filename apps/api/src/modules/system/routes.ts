import {
  APP_PROFILES,
  errorBodySchema,
  healthSchema,
  publicConfigSchema,
  type PublicConfig,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { ErrorCode } from '@portolan/contract';

export function publicConfig(ctx: App['ctx']): PublicConfig {
  const { config } = ctx;
  return {
    version: config.version,
    brand: config.brand,
    app_profile: config.appProfile,
    modules: [...APP_PROFILES[config.appProfile]],
    // Codes only: the web app needs to know which homes launch, and the launch answer carries the
    // URL to the members who may use it; this answer is public.
    launchable_modules: APP_PROFILES[config.appProfile].filter((m) => config.moduleUrls[m]),
    support_email: config.supportEmail,
    features: {
      registration: config.features.registration,
      google_login: config.features.googleLogin && Boolean(config.google.clientId),
      billing: config.features.billing,
      auto_pick_workspace: config.features.autoPickWorkspace,
      modern_look: config.features.modernLook,
      analytics: config.features.analytics,
    },
    analytics: analyticsSink(config),
  };
}

/**
 * Where the browser sends analytics (spec §1): only with FEATURE_ANALYTICS on and both
 * ANALYTICS_ID and ANALYTICS_URL set; otherwise null and the web app sends nothing at all.
 * The CSP's connect-src allows the sink's origin under the same condition (plugins/security.ts).
 */
export function analyticsSink(config: App['ctx']['config']): { id: string; url: string } | null {
  const { id, url } = config.analytics;
  return config.features.analytics && id && url ? { id, url } : null;
}

export async function systemRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/health', {
    config: { access: { public: 'probes of the platform carry no session' } },
    schema: {
      tags: ['system'],
      summary: 'Liveness and database check',
      response: { 200: healthSchema, 503: errorBodySchema },
    },
    handler: async (_request, reply) => {
      // ping() gives up after PING_TIMEOUT_MS: a database that does not answer is a 503 within
      // two seconds, not a probe that hangs.
      try {
        await ctx.database.ping();
      } catch (err) {
        reply.log.warn({ err }, 'health: database unreachable');
        throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'The database is not reachable.');
      }
      return { status: 'ok' as const, database: ctx.database.engine, version: ctx.config.version };
    },
  });

  app.get('/v1/config', {
    config: { access: { public: 'the web app reads it before anyone signs in' } },
    schema: {
      tags: ['system'],
      summary: 'Public build switches and settings for the web app',
      response: { 200: publicConfigSchema },
    },
    handler: async () => publicConfig(ctx),
  });
}
