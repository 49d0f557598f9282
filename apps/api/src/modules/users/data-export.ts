import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import type { Exporter } from '../../lib/data-export.ts';

/** A user's account in their archive (profile.json's `user`); never the password hash. */
export const usersExporter: Exporter = {
  tables: ['users'],
  sections: {
    USER: {
      'profile.json#user': {
        json: async ({ db, id }) => {
          const [user] = await db.select().from(users).where(eq(users.id, id));
          if (!user) throw new Error('the user of the export is gone');
          return {
            id: user.id,
            email: user.email,
            first_name: user.first_name,
            last_name: user.last_name,
            phone: user.phone,
            avatar: user.avatar,
            enabled: user.enabled,
            can_create_client: user.can_create_client,
            clients_view_option: user.clients_view_option,
            email_verified_at: user.email_verified_at,
            last_login_at: user.last_login_at,
            created_at: user.created_at,
            modified_at: user.modified_at,
          };
        },
      },
    },
  },
};
