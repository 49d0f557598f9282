/**
 * Data exports (issue 11): a user's own data (kind USER) or an organization's (kind ORGANIZATION,
 * for its OWNERs) as one zip archive, built by a background job. Zod-free: the web app's labels
 * and the server's rules use the same lists.
 */

export const DATA_EXPORT_KINDS = ['USER', 'ORGANIZATION'] as const;
export type DataExportKind = (typeof DATA_EXPORT_KINDS)[number];

/** PENDING (waiting for the job), RUNNING (being built), READY (to download), FAILED. */
export const DATA_EXPORT_STATUSES = ['PENDING', 'RUNNING', 'READY', 'FAILED'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

/** How the settings pages name each status. */
export const DATA_EXPORT_STATUS_LABELS: Record<DataExportStatus, string> = {
  PENDING: 'Pending',
  RUNNING: 'Building',
  READY: 'Ready',
  FAILED: 'Failed',
};

/** Still on its way: one at a time per requester, kind (and organization). */
export const isDataExportInProgress = (status: DataExportStatus) =>
  status === 'PENDING' || status === 'RUNNING';

/** A ready archive (and its e-mailed link) can be downloaded for this long, then it is deleted. */
export const DATA_EXPORT_TTL_HOURS = 24;

/** Builds tried (a crash or an error counts) before an export is FAILED. */
export const DATA_EXPORT_MAX_ATTEMPTS = 3;

/** GET /v1/data-exports/ and the organization's list: 10 a page unless asked. */
export const DATA_EXPORT_PAGE_SIZE = 10;

/** An export as the API answers it (the zod schema is in data-export-schemas.ts). */
export interface DataExport {
  id: string;
  kind: DataExportKind;
  organization_id: string | null;
  status: DataExportStatus;
  /** The archive's name once READY. */
  file_name: string | null;
  size_bytes: number | null;
  /** Why a FAILED export failed, in words for its requester. */
  error: string | null;
  created: string;
  completed: string | null;
  /** When a READY archive (and its link) stops working. */
  expires: string | null;
  /** READY, but past `expires`: the archive is gone. */
  is_expired: boolean;
  /** The signed-in download (relative to the portal) while READY and not expired, else null. */
  download_url: string | null;
}
