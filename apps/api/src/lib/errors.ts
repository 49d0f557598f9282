import { ERROR_STATUS, ErrorCode, type ErrorCodeWithStatus } from '@portolan/contract';

/**
 * An error meant for the caller: the error handler answers it as {code, message, details?}
 * with its code's status (the contract's ERROR_STATUS, declared once per code). Anything else
 * thrown becomes a 500 with no internals.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly details?: unknown;
  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.statusCode = ERROR_STATUS[code];
    this.code = code;
    this.details = details;
  }
}

export const badRequest = (code: ErrorCodeWithStatus<400>, message: string, details?: unknown) =>
  new AppError(code, message, details);
export const fieldError = (
  field: string,
  message: string,
  code: ErrorCodeWithStatus<400> = ErrorCode.VALIDATION_ERROR,
) => new AppError(code, message, [{ field, message }]);
export const notAuthenticated = (message = 'Sign in to continue.') =>
  new AppError(ErrorCode.NOT_AUTHENTICATED, message);
export const forbidden = (message = 'You do not have permission to do this.') =>
  new AppError(ErrorCode.PERMISSION_DENIED, message);
export const notFound = (message = 'Not found.') => new AppError(ErrorCode.NOT_FOUND, message);
export const conflict = (code: ErrorCodeWithStatus<409>, message: string, details?: unknown) =>
  new AppError(code, message, details);
export const tooManyRequests = (message = 'Too many attempts. Try again in a few minutes.') =>
  new AppError(ErrorCode.RATE_LIMITED, message);

/** An error answer below the routes (plugins): the body and its code's status. */
export interface ErrorAnswer {
  status: number;
  body: { code: ErrorCode; message: string; details?: unknown };
}

export const errorAnswer = (code: ErrorCode, message: string, details?: unknown): ErrorAnswer => ({
  status: ERROR_STATUS[code],
  body: { code, message, ...(details !== undefined && { details }) },
});
