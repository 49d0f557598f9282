import { asc, eq } from 'drizzle-orm';
import { oauthAccounts, sessions, users } from '../../db/schema/index.ts';
import type { Exporter } from '../../lib/data-export.ts';

/**
 * A user's sign-in methods and sessions in their archive (profile.json): whether they have a
 * password (never its hash), their Google links, when and from where they signed in (never a
 * session's id or token).
 */
export const authExporter: Exporter = {
  tables: ['oauthAccounts', 'sessions'],
  sections: {
    USER: {
      'profile.json#sign_in_methods': {
        json: async ({ db, id }) => {
          const [user] = await db
            .select({ password_hash: users.password_hash })
            .from(users)
            .where(eq(users.id, id));
          const google = await db.select().from(oauthAccounts).where(eq(oauthAccounts.user_id, id));
          return {
            password: user !== undefined && user.password_hash !== null,
            external: google.map((g) => ({
              provider: g.provider,
              subject: g.subject,
              email: g.email,
              linked_at: g.created_at,
            })),
          };
        },
      },
      'profile.json#sessions': {
        json: async ({ db, id }) => {
          const signIns = await db
            .select()
            .from(sessions)
            .where(eq(sessions.user_id, id))
            .orderBy(asc(sessions.created_at));
          return signIns.map((s) => ({
            created_at: s.created_at,
            last_refreshed_at: s.last_refreshed_at,
            expires_at: s.expires_at,
            revoked_at: s.revoked_at,
            user_agent: s.user_agent,
            ip: s.ip,
          }));
        },
      },
    },
  },
};
