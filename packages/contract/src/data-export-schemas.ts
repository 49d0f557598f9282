import { z } from 'zod';
import {
  DATA_EXPORT_KINDS,
  DATA_EXPORT_PAGE_SIZE,
  DATA_EXPORT_STATUSES,
  type DataExport,
} from './data-exports.ts';
import { pageQuery } from './organizations.ts';
import { paginated } from './pagination.ts';

/**
 * Data export calls (issue 11): ask for an export (202, built in the background), list one's
 * exports, download an archive signed in or through the e-mailed link.
 */

const isoTime = z.iso.datetime({ offset: true });

export const dataExportSchema = z.object({
  id: z.uuid(),
  kind: z.enum(DATA_EXPORT_KINDS),
  organization_id: z.uuid().nullable(),
  status: z.enum(DATA_EXPORT_STATUSES),
  file_name: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
  error: z.string().nullable(),
  created: isoTime,
  completed: isoTime.nullable(),
  expires: isoTime.nullable(),
  is_expired: z.boolean(),
  download_url: z.string().nullable(),
}) satisfies z.ZodType<DataExport>;
export const dataExportPageSchema = paginated(dataExportSchema);

/** GET /v1/data-exports/ and GET /v1/organizations/{orgId}/data-exports/: newest first. */
export const dataExportListQuerySchema = pageQuery(DATA_EXPORT_PAGE_SIZE);

export const dataExportParamsSchema = z.strictObject({
  exportId: z.uuid('Not a valid id.'),
});

/** The e-mailed link's token: 32 random bytes, base64url (43 characters). */
export const dataExportTokenParamsSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Not a valid download link.'),
});
