import { z } from 'zod';
import { APP_PROFILE_NAMES, MODULE_CODES } from './constants.ts';

/** The public build switches and settings the API serves to the web app at GET /v1/config. */
export const publicConfigSchema = z.object({
  version: z.string(),
  brand: z.string(),
  app_profile: z.enum(APP_PROFILE_NAMES as [string, ...string[]]),
  modules: z.array(z.string()).describe('Module codes of the active app profile'),
  launchable_modules: z
    .array(z.enum(MODULE_CODES))
    .describe(
      'Module codes of the app profile whose own app is configured (MODULE_URLS): their home opens that app with a launch token',
    ),
  support_email: z.string(),
  features: z.object({
    registration: z.boolean(),
    google_login: z
      .boolean()
      .describe('True only when the switch is on and a Google client id is set'),
    billing: z.boolean(),
    auto_pick_workspace: z.boolean(),
    modern_look: z.boolean(),
    analytics: z.boolean(),
  }),
  analytics: z
    .object({ id: z.string(), url: z.string() })
    .nullable()
    .describe(
      'Where the browser sends page views and events: set only when FEATURE_ANALYTICS is on and ANALYTICS_ID and ANALYTICS_URL are both configured; null means nothing is sent',
    ),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
});
export type Health = z.infer<typeof healthSchema>;
