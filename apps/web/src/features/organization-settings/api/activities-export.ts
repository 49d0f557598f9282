import type { ActivityExportFormat } from '@portolan/contract';
import { ApiError, ClientErrorCode } from '../../../lib/api-error';
import {
  abortError,
  fileNameFromDisposition,
  isAbortError,
  openDownload,
  saveBlob,
} from '../../../lib/download';

const enc = encodeURIComponent;

export type ExportFormat = ActivityExportFormat;

export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  csv: 'CSV',
  jsonl: 'JSON Lines',
};

const ACCEPT: Record<ExportFormat, string> = {
  csv: 'text/csv, application/json',
  jsonl: 'application/x-ndjson, application/json',
};

/** What to export: the format, a range of days (YYYY-MM-DD, empty for open) and the page's filters. */
export interface ActivityExportRequest {
  format: ExportFormat;
  from_date: string;
  to_date: string;
  action: string | null;
  key: string;
}

export interface ExportProgress {
  /** Rows received so far (complete lines; the CSV header is not one). */
  rows: number;
  /** Rows announced by X-Export-Count; null when the header is missing or unreadable. */
  total: number | null;
}

export interface ExportResult {
  rows: number;
  fileName: string;
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/**
 * Counts the rows of an export as its bytes arrive: lines that hold something, the CSV header
 * excepted. In CSV a line break inside a quoted field does not end a row ("" inside quotes
 * toggles twice, so it changes nothing). Bytes, not text: in UTF-8 no byte of a multi-byte
 * character is a line break or a quote, so a chunk may end anywhere.
 */
export function createRowCounter(format: ExportFormat) {
  const csv = format === 'csv';
  let quoted = false;
  let content = false;
  let lines = 0;
  const rowsOf = (n: number) => (csv ? Math.max(0, n - 1) : n);
  return {
    push(chunk: Uint8Array) {
      for (const byte of chunk) {
        if (byte === LF && !quoted) {
          if (content) lines += 1;
          content = false;
        } else if (byte !== CR) {
          if (csv && byte === QUOTE) quoted = !quoted;
          content = true;
        }
      }
    },
    /** Complete rows so far. */
    get rows() {
      return rowsOf(lines);
    },
    /** Rows once the body has ended: a last line without its line break counts too. */
    get finalRows() {
      return rowsOf(lines + (content ? 1 : 0));
    },
  };
}

/** X-Export-Count as a number of rows, or null. */
function exportCount(response: Response): number | null {
  const value = response.headers.get('X-Export-Count')?.trim();
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

export function exportUrl(orgId: string, request: ActivityExportRequest): string {
  const params = new URLSearchParams({ format: request.format });
  if (request.from_date) params.set('from_date', request.from_date);
  if (request.to_date) params.set('to_date', request.to_date);
  if (request.action) params.set('action', request.action);
  if (request.key) params.set('key', request.key);
  return `/v1/organizations/${enc(orgId)}/activities/export/?${params.toString()}`;
}

/**
 * GET …/activities/export/ and saves the file under the server's name. The request waits for
 * its headers at most HTTP_TIMEOUT_MS; the body, streamed, takes the time it takes, read chunk by
 * chunk with `onProgress` after each. Rejects like `openDownload` (ApiError; an AbortError when
 * `signal` aborts, also mid-body) and with an ApiError NETWORK_ERROR when the body breaks off.
 * Nothing is saved unless the whole body arrived.
 */
export async function exportActivities(
  orgId: string,
  request: ActivityExportRequest,
  { signal, onProgress }: { signal: AbortSignal; onProgress: (progress: ExportProgress) => void },
): Promise<ExportResult> {
  const response = await openDownload(exportUrl(orgId, request), {
    accept: ACCEPT[request.format],
    signal,
    failureMessage: 'The activities could not be exported.',
  });
  const total = exportCount(response);
  const fileName =
    fileNameFromDisposition(response.headers.get('Content-Disposition')) ??
    `activities.${request.format}`;
  const type =
    response.headers.get('Content-Type') ??
    (request.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson');
  const counter = createRowCounter(request.format);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  onProgress({ rows: 0, total });

  if (response.body) {
    const reader = response.body.getReader();
    // A real fetch's body fails on abort by itself; this also ends a read that waits.
    const stop = () => void reader.cancel().catch(() => undefined);
    signal.addEventListener('abort', stop, { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (signal.aborted) throw abortError();
        if (done) break;
        chunks.push(value);
        counter.push(value);
        onProgress({ rows: counter.rows, total });
      }
    } catch (error) {
      if (signal.aborted || isAbortError(error)) throw abortError(error);
      throw new ApiError(0, {
        code: ClientErrorCode.NETWORK_ERROR,
        message:
          'The connection was lost during the export, so nothing was saved. Check your internet connection and export again.',
      });
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }
  if (signal.aborted) throw abortError();

  const rows = counter.finalRows;
  onProgress({ rows, total });
  saveBlob(new Blob(chunks, { type }), fileName);
  return { rows, fileName };
}
