import { asc, eq } from 'drizzle-orm';
import { securityEvents } from '../../db/schema/index.ts';
import type { Exporter } from '../../lib/data-export.ts';

/** The account's security log in its archive (security-log.json). */
export const securityLogExporter: Exporter = {
  tables: ['securityEvents'],
  sections: {
    USER: {
      'security-log.json': {
        json: async ({ db, id }) =>
          (
            await db
              .select()
              .from(securityEvents)
              .where(eq(securityEvents.user_id, id))
              .orderBy(asc(securityEvents.created_at))
          ).map((e) => ({
            kind: e.kind,
            method: e.method,
            factor: e.factor,
            ip: e.ip,
            user_agent: e.user_agent,
            created_at: e.created_at,
          })),
      },
    },
  },
};
