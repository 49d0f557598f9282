import { HTTP_TIMEOUT_MS } from '@portolan/contract';
import { ApiError, ClientErrorCode, isErrorBody } from './api-error';
import { relogin, useAuthStore } from './auth-store';
import { trackRequest } from './loading-store';

/**
 * Files from the API: an answer that is not JSON (a PDF, a CSV export) fetched with the stored
 * bearer token — the API client reads every answer as text, and a plain link would go without
 * the token — then handed to the browser as a download.
 */

export interface OpenDownloadOptions {
  /** The Accept header, e.g. `application/pdf, application/json` (errors come as JSON). */
  accept: string;
  /** Aborts the request, and the reading of its body after the headers came. */
  signal?: AbortSignal;
  /**
   * How long to wait for the answer's headers (HTTP_TIMEOUT_MS unless told). The body is not
   * timed: a large file may take minutes to arrive.
   */
  headersTimeoutMs?: number;
  /** Shown in the loading message line while waiting for the headers. */
  loadingMessage?: string;
  /** The start of every failure's sentence, e.g. "The invoice could not be downloaded." */
  failureMessage: string;
}

/**
 * GET `url` with the stored bearer token and resolves with the answer once its headers are in,
 * its body still to be read (`response.blob()`, or `response.body` for a stream). A failure
 * rejects with an ApiError like the API client's (status 0 without an answer, code TIMEOUT when
 * the headers took too long; a 401 signs out), and an abort through `signal` rejects with the
 * DOMException "AbortError". The progress bar runs until the headers arrive.
 */
export async function openDownload(url: string, options: OpenDownloadOptions): Promise<Response> {
  const token = useAuthStore.getState().userToken;
  const headers = new Headers({ Accept: options.accept });
  if (token) headers.set('Authorization', `Bearer ${token}`);

  const controller = new AbortController();
  const { signal } = options;
  // Stays attached after the headers: aborting then also stops the body.
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener('abort', () => controller.abort(), { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.headersTimeoutMs ?? HTTP_TIMEOUT_MS);
  const done = trackRequest({ message: options.loadingMessage });

  try {
    let response: Response;
    try {
      response = await fetch(url, {
        headers,
        credentials: 'same-origin',
        signal: controller.signal,
      });
    } catch (error) {
      if (timedOut) {
        throw new ApiError(0, {
          code: ClientErrorCode.TIMEOUT,
          message: `${options.failureMessage} The server took too long to answer. Please try again.`,
        });
      }
      if (signal?.aborted) throw abortError(error);
      throw new ApiError(0, {
        code: ClientErrorCode.NETWORK_ERROR,
        message: `${options.failureMessage} Check your internet connection and try again.`,
      });
    }
    if (response.ok) return response;

    const body: unknown = await response.json().catch(() => undefined);
    if (response.status === 401 && token) {
      useAuthStore.getState().setIsAuth(false);
      relogin();
    }
    throw new ApiError(
      response.status,
      isErrorBody(body)
        ? body
        : {
            code: response.status >= 500 ? 'INTERNAL_ERROR' : ClientErrorCode.BAD_RESPONSE,
            message: options.failureMessage,
          },
    );
  } finally {
    clearTimeout(timer);
    done();
  }
}

/** The DOMException "AbortError" for an aborted download (the fetch's own when it is one). */
export function abortError(error?: unknown): DOMException {
  return error instanceof DOMException && error.name === 'AbortError'
    ? error
    : new DOMException('The download was aborted.', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The file name of a Content-Disposition header: `filename*=UTF-8''…` (RFC 6266/5987) first,
 * else `filename="…"` or `filename=…`; without any folder part. Null when there is none.
 */
export function fileNameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim();
  if (extended) {
    const match = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(extended);
    if (match?.[1]?.toLowerCase() === 'utf-8') {
      try {
        name = decodeURIComponent(match[2] ?? '');
      } catch {
        name = null;
      }
    }
  }
  if (!name) {
    const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1];
    const plain = /(?:^|;)\s*filename\s*=\s*([^";]+)/i.exec(header)?.[1];
    name = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (plain?.trim() ?? null);
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

/** Hands a Blob to the browser as a file named `fileName` (an object URL and a temporary link). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The click has handed the file to the browser; a moment later the URL may go.
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  }
}
