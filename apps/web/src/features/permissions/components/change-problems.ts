import { ApiError, errorMessage } from '../../../lib/api-error';
import { ErrorCode } from '../../../lib/error-codes';

/**
 * A failed change of a member's permissions (overrides, custom roles) in words that say what to
 * do, chosen by the error's code (never its text).
 */
export function permissionChangeProblem(error: unknown): string {
  if (!(error instanceof ApiError)) return errorMessage(error);
  if (error.status === 0 || error.status >= 500)
    return 'This could not be saved right now. Please try again in a moment.';
  switch (error.code) {
    case ErrorCode.PERMISSION_DENIED:
      return 'Your role does not allow changing this member’s permissions. Ask an owner or an admin of the workspace.';
    case ErrorCode.NOT_FOUND:
      return 'This person is no longer a member of the workspace, or the custom role is gone. Reload the page.';
    case ErrorCode.VALIDATION_ERROR:
      return `${errorMessage(error)} Reload the page and try again.`;
    default:
      return errorMessage(error);
  }
}
