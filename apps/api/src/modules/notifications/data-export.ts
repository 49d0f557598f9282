import { asc, eq } from 'drizzle-orm';
import { notifications } from '../../db/schema/index.ts';
import type { Exporter } from '../../lib/data-export.ts';

const stripSecrets = (meta: Record<string, unknown>) => {
  const { invitation_token: _token, ...rest } = meta;
  return rest;
};

/** A user's notifications (the bell) in their archive, seen or not. */
export const notificationsExporter: Exporter = {
  tables: ['notifications'],
  sections: {
    USER: {
      'notifications.json': {
        json: async ({ db, id }) => {
          const rows = await db
            .select()
            .from(notifications)
            .where(eq(notifications.recipient_id, id))
            .orderBy(asc(notifications.created_at), asc(notifications.id));
          return rows.map((n) => ({
            id: n.id,
            type: n.type,
            status: n.status,
            is_seen: n.is_seen,
            extra_message: n.extra_message,
            // The invitation's token (the credential of its link) stays out.
            meta: stripSecrets(n.meta),
            organization_id: n.organization_id,
            workspace_id: n.client_id,
            created_at: n.created_at,
            deleted_at: n.deleted_at,
          }));
        },
      },
    },
  },
};
