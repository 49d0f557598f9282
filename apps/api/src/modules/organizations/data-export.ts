import { eq } from 'drizzle-orm';
import { organizations } from '../../db/schema/index.ts';
import type { Exporter } from '../../lib/data-export.ts';

/** The organization itself in its archive (organization.json). */
export const organizationsExporter: Exporter = {
  tables: ['organizations'],
  sections: {
    ORGANIZATION: {
      'organization.json': {
        json: async ({ db, id }) => {
          const [org] = await db.select().from(organizations).where(eq(organizations.id, id));
          if (!org) throw new Error('the organization of the export is gone');
          return {
            id: org.id,
            name: org.name,
            logo: org.logo,
            owner_id: org.owner_id,
            created_at: org.created_at,
            modified_at: org.modified_at,
            deleted_at: org.deleted_at,
          };
        },
      },
    },
  },
};
