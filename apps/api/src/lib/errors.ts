import { ErrorCode } from '@portolan/contract';

/**
 * An error meant for the caller: the error handler answers it as {code, message, details?}
 * with its status. Anything else thrown becomes a 500 with no internals.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly details?: unknown;
  constructor(statusCode: number, code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
  }
}

export const badRequest = (code: ErrorCode, message: string, details?: unknown) =>
  new AppError(400, code, message, details);
export const fieldError = (
  field: string,
  message: string,
  code: ErrorCode = ErrorCode.VALIDATION_ERROR,
) => new AppError(400, code, message, [{ field, message }]);
export const notAuthenticated = (message = 'Sign in to continue.') =>
  new AppError(401, ErrorCode.NOT_AUTHENTICATED, message);
export const forbidden = (message = 'You do not have permission to do this.') =>
  new AppError(403, ErrorCode.PERMISSION_DENIED, message);
export const notFound = (message = 'Not found.') => new AppError(404, ErrorCode.NOT_FOUND, message);
export const conflict = (code: ErrorCode, message: string, details?: unknown) =>
  new AppError(409, code, message, details);
export const tooManyRequests = (message = 'Too many attempts. Try again in a few minutes.') =>
  new AppError(429, ErrorCode.RATE_LIMITED, message);
