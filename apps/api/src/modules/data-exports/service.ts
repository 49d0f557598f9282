import crypto from 'node:crypto';
import {
  ErrorCode,
  isDataExportInProgress,
  type DataExport,
  type DataExportKind,
  type Paginated,
} from '@portolan/contract';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { dataExports, users } from '../../db/schema/index.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { pageFromRows, rowsOf, windowTotal, type PageQuery } from '../../lib/pagination.ts';
import { decideTenant, lockTenant } from '../access/index.ts';

/**
 * Asking for data exports, listing them and finding one to download. The archive itself is
 * built by the job (job.ts); here a request only writes a PENDING row, one at a time per
 * requester, kind (and organization), counted under the user's or the organization's row lock.
 */

export type DataExportRow = typeof dataExports.$inferSelect;

/** What an export is of: the requester's own data, or an organization's. */
export type ExportTarget = { kind: 'USER' } | { kind: 'ORGANIZATION'; organizationId: string };

/** The signed-in download of an export (relative to the portal). */
export const downloadPath = (id: string) => `/v1/data-exports/${id}/download/`;

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export const isExpired = (row: DataExportRow, now: Date) =>
  row.status === 'READY' && (row.expires_at === null || row.expires_at <= now);

export function toDataExportDto(row: DataExportRow, now: Date): DataExport {
  const expired = isExpired(row, now);
  return {
    id: row.id,
    kind: row.kind,
    organization_id: row.organization_id,
    status: row.status,
    file_name: row.file_name,
    size_bytes: row.size_bytes,
    error: row.error,
    created: row.created_at.toISOString(),
    completed: row.completed_at?.toISOString() ?? null,
    expires: row.expires_at?.toISOString() ?? null,
    is_expired: expired,
    download_url: row.status === 'READY' && !expired ? downloadPath(row.id) : null,
  };
}

const ownedBy = (userId: string, target: ExportTarget) =>
  and(
    eq(dataExports.user_id, userId),
    eq(dataExports.kind, target.kind),
    target.kind === 'ORGANIZATION'
      ? eq(dataExports.organization_id, target.organizationId)
      : isNull(dataExports.organization_id),
  );

const IN_PROGRESS: Record<DataExportKind, string> = {
  USER: 'An export of your data is already being prepared. You get an e-mail when it is ready; ask for another after that.',
  ORGANIZATION:
    'An export of this organization’s data you asked for is already being prepared. You get an e-mail when it is ready; ask for another after that.',
};

/**
 * Writes a PENDING export. The requester's user row (kind USER) or the organization's row (kind
 * ORGANIZATION) is locked first, so of concurrent requests one inserts and the others find it:
 * 409 DATA_EXPORT_IN_PROGRESS while it is PENDING or RUNNING.
 */
export async function requestExport(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  userId: string,
  target: ExportTarget,
): Promise<DataExport> {
  const row = await ctx.db.transaction(async (tx) => {
    if (target.kind === 'USER') {
      await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.id, userId))
        .for('no key update');
    } else {
      await lockTenant(tx, { organizationId: target.organizationId });
    }
    const [open] = await tx
      .select({ id: dataExports.id })
      .from(dataExports)
      .where(and(ownedBy(userId, target), inArray(dataExports.status, ['PENDING', 'RUNNING'])))
      .limit(1);
    if (open) {
      throw conflict(ErrorCode.DATA_EXPORT_IN_PROGRESS, IN_PROGRESS[target.kind], {
        export_id: open.id,
      });
    }
    const now = ctx.clock.now();
    const [made] = await tx
      .insert(dataExports)
      .values({
        kind: target.kind,
        user_id: userId,
        organization_id: target.kind === 'ORGANIZATION' ? target.organizationId : null,
        created_at: now,
        modified_at: now,
      })
      .returning();
    return made!;
  });
  return toDataExportDto(row, ctx.clock.now());
}

/** The caller's own exports of one kind (and organization), newest first. */
export async function listExports(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  userId: string,
  target: ExportTarget,
  query: PageQuery,
): Promise<Paginated<DataExport>> {
  const where = ownedBy(userId, target);
  const rows = await ctx.db
    .select({ row: dataExports, total: windowTotal })
    .from(dataExports)
    .where(where)
    .orderBy(desc(dataExports.created_at), desc(dataExports.id))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  const now = ctx.clock.now();
  return pageFromRows(
    query,
    rows,
    (r) => toDataExportDto(r.row, now),
    async () => {
      const [c] = await ctx.db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(dataExports)
        .where(where);
      return c?.n ?? 0;
    },
  );
}

const NOT_FOUND = 'No such export, or it is not yours.';

/** Refuses an archive that cannot be downloaded (yet, or any more). */
async function downloadable(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  row: DataExportRow,
): Promise<DataExportRow> {
  if (row.kind === 'ORGANIZATION') {
    // Still a member allowed to export it (its OWNERs): 404 when no longer a member at all.
    await decideTenant(
      ctx.db,
      { userId: row.user_id },
      { organizationId: row.organization_id! },
      'organization.data.export',
      {
        outside: () => notFound(NOT_FOUND),
        denied: () =>
          forbidden(
            'Only an owner of the organization can download its data, and you are no longer one.',
          ),
      },
    );
  }
  if (isExpired(row, ctx.clock.now()) || (row.status === 'READY' && !row.storage_key)) {
    throw new AppError(
      ErrorCode.DATA_EXPORT_EXPIRED,
      'This export has expired: an archive can be downloaded for 24 hours after it is ready, then it is deleted. Ask for a new export in the settings.',
    );
  }
  if (isDataExportInProgress(row.status)) {
    throw conflict(
      ErrorCode.DATA_EXPORT_NOT_READY,
      'This export is still being prepared. You get an e-mail when it is ready.',
    );
  }
  if (row.status === 'FAILED') {
    throw conflict(
      ErrorCode.DATA_EXPORT_NOT_READY,
      'This export failed, so there is nothing to download. Ask for a new export in the settings.',
    );
  }
  return row;
}

/** The caller's own export, ready to download (404 for anyone else's). */
export async function findOwnDownload(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  userId: string,
  exportId: string,
): Promise<DataExportRow> {
  const [row] = await ctx.db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, exportId), eq(dataExports.user_id, userId)));
  if (!row) throw notFound(NOT_FOUND);
  return downloadable(ctx, row);
}

/**
 * The export an e-mailed link names, by the SHA-256 of its token, ready to download. The token
 * is the credential; its requester must still be an enabled account (and, for an organization,
 * still allowed to export it).
 */
export async function findTokenDownload(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  token: string,
): Promise<DataExportRow> {
  const [found] = await ctx.db
    .select({ row: dataExports })
    .from(dataExports)
    .innerJoin(users, eq(users.id, dataExports.user_id))
    .where(
      and(
        eq(dataExports.download_token_hash, hashToken(token)),
        eq(users.enabled, true),
        isNull(users.deleted_at),
      ),
    );
  if (!found) {
    throw notFound(
      'This download link is not valid. Use the link of the latest e-mail, or download the export from the settings.',
    );
  }
  return downloadable(ctx, found.row);
}
