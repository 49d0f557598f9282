import { asc, eq } from 'drizzle-orm';
import { uploads } from '../../db/schema/index.ts';
import type { Exporter } from '../../lib/data-export.ts';

/** A user's uploaded files in their archive: the bytes under uploads/, the list in uploads.json. */
export const uploadsExporter: Exporter = {
  tables: ['uploads'],
  sections: {
    USER: {
      'uploads.json': {
        json: async ({ db, id, files }, out) => {
          const rows = await db
            .select()
            .from(uploads)
            .where(eq(uploads.user_id, id))
            .orderBy(asc(uploads.created_at), asc(uploads.id));
          const listed: object[] = [];
          for (const file of rows) {
            const stored = await files.get(file.storage_key);
            listed.push({
              id: file.id,
              file: stored ? `uploads/${file.storage_key}` : null,
              url: `/uploads/${file.storage_key}`,
              content_type: file.content_type,
              size: file.size,
              uploaded_at: file.created_at,
            });
            if (stored) await out.binary(`uploads/${file.storage_key}`, stored.body);
          }
          return listed;
        },
      },
    },
  },
};
