import type { ErrorCode, ErrorDetail } from '@portolan/contract';

/** Codes the client itself produces when there is no server answer. */
export const ClientErrorCode = {
  NETWORK_ERROR: 'NETWORK_ERROR',
  TIMEOUT: 'TIMEOUT',
  BAD_RESPONSE: 'BAD_RESPONSE',
} as const;

export interface ApiErrorBody {
  code: ErrorCode | string;
  message: string;
  details?: unknown;
}

/** Every failed call rejects with this: the HTTP status (0 without an answer) and the server's body. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | string;
  readonly details: unknown;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.details = body.details;
    this.body = body;
  }

  /** Validation details as `{field, message}` entries; empty when the server sent none. */
  get fieldErrors(): ErrorDetail[] {
    if (!Array.isArray(this.details)) return [];
    return this.details.filter(
      (d): d is ErrorDetail =>
        typeof d === 'object' &&
        d !== null &&
        typeof (d as { field?: unknown }).field === 'string' &&
        typeof (d as { message?: unknown }).message === 'string',
    );
  }
}

/**
 * The server's error shape `{code, message, details?}`. Checked here rather than with the
 * contract's helper so that the entry chunk does not pull in the contract's zod schemas.
 */
export function isErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A sentence for the user from any error, falling back to a generic one. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.') {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}

/**
 * Why a call failed, from its status and code (never its text): `network` when no answer came
 * (no connection, or the timeout), `server` for 500 and above, `request` for any other answer.
 */
export type FailureKind = 'network' | 'server' | 'request';

export function failureKind(error: unknown): FailureKind {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'network';
    if (error.status >= 500) return 'server';
    return 'request';
  }
  // Not an API answer at all (fetch threw before the client could wrap it).
  return error instanceof TypeError ? 'network' : 'request';
}

/**
 * A sentence saying why something could not be loaded, consistent with the toast the client
 * showed for the same failure (§8: application error for 500+, network error without answer).
 */
export function loadFailureReason(error: unknown): string {
  if (error instanceof ApiError && error.code === ClientErrorCode.TIMEOUT) {
    return 'The server took too long to answer.';
  }
  switch (failureKind(error)) {
    case 'network':
      return 'The server could not be reached. Check your internet connection.';
    case 'server':
      return 'The server ran into a problem on its side.';
    default:
      return errorMessage(error, 'Something went wrong.');
  }
}
