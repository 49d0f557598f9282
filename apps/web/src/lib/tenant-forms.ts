import type { FormErrors } from '@mantine/form';
import { ApiError, errorMessage } from './api-error';
import { ErrorCode } from './error-codes';
import { applyFieldErrors } from './forms';
import { NAME_MAX_LENGTH } from './tenant-api';

interface NamedForm {
  getValues: () => object;
  setErrors: (update: (previous: FormErrors) => FormErrors) => void;
}

/** The name of an organization or a workspace: required, at most NAME_MAX_LENGTH characters. */
export function tenantNameError(what: 'organization' | 'workspace') {
  return (value: string): string | null => {
    const name = value.trim();
    if (!name) return `Enter the ${what} name.`;
    if (name.length > NAME_MAX_LENGTH)
      return `Keep the ${what} name under ${NAME_MAX_LENGTH + 1} characters.`;
    return null;
  };
}

/**
 * Puts a failed save where the user can act on it, by the error's code (never its text): a name
 * already in use and the server's validation details on their fields (returns null), anything
 * else as a sentence for the form's alert saying what to do.
 */
export function tenantFormProblem(form: NamedForm, error: unknown): string | null {
  if (error instanceof ApiError && error.code === ErrorCode.NAME_TAKEN) {
    const message = error.message || 'This name is already in use. Choose another one.';
    form.setErrors((previous) => ({ ...previous, name: message }));
    return null;
  }
  if (applyFieldErrors(form, error)) return null;
  if (error instanceof ApiError) {
    if (error.status === 0 || error.status >= 500)
      return 'Your changes could not be saved right now. Please try again in a moment.';
    if (error.code === ErrorCode.PERMISSION_DENIED)
      return 'Your role does not allow this. Ask an owner or an admin of the organization.';
    if (error.code === ErrorCode.NOT_FOUND)
      return 'This no longer exists, or you are no longer a member. Go back to your dashboard.';
  }
  return errorMessage(error);
}
