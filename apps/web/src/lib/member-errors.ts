import type { FormErrors } from '@mantine/form';
import { ApiError, errorMessage } from './api-error';
import { ErrorCode } from './error-codes';
import { applyFieldErrors } from './forms';

/** Where a member action happened, for the sentences below. */
export type MemberPlace = 'organization' | 'workspace';

const ASK = (where: MemberPlace) =>
  where === 'organization'
    ? 'Ask an owner or an admin of the organization.'
    : 'Ask an owner, an admin or a manager of the workspace.';

/**
 * A failed member action (role change, removal, resend, grant of access) in words that say what
 * to do, chosen by the error's code (never its text).
 */
export function memberActionProblem(error: unknown, where: MemberPlace): string {
  if (!(error instanceof ApiError)) return errorMessage(error);
  if (error.status === 0 || error.status >= 500)
    return 'This could not be done right now. Please try again in a moment.';
  switch (error.code) {
    case ErrorCode.LAST_OWNER:
      return 'The organization needs an Owner: make another member Owner first.';
    case ErrorCode.OWN_MEMBERSHIP:
      return 'You cannot do this to your own membership. Ask another owner or admin.';
    case ErrorCode.WORKSPACE_OWNER:
      return 'A workspace Owner cannot be removed. Change their role first, if your role allows it.';
    case ErrorCode.MEMBERSHIP_PENDING:
      return 'This person has not accepted the invitation yet. Send it again, or cancel it and invite them again.';
    case ErrorCode.INVITATION_NOT_PENDING:
      return 'This invitation has already been accepted or declined. Reload the page to see the member as they are now.';
    case ErrorCode.PERMISSION_DENIED:
      return `Your role does not allow this. ${ASK(where)}`;
    case ErrorCode.NOT_FOUND:
      return `This person is no longer a member of the ${where}. Reload the list.`;
    default:
      return errorMessage(error);
  }
}

interface EmailForm {
  getValues: () => object;
  setErrors: (update: (previous: FormErrors) => FormErrors) => void;
}

/**
 * A failed invitation: an existing member or a pending invitation goes on the e-mail field
 * (409), the server's validation details on their fields (400); returns what the form's alert
 * should say, or null when it all went on fields.
 */
export function invitationProblem(form: EmailForm, error: unknown, where: MemberPlace) {
  if (error instanceof ApiError && error.status === 409) {
    const email =
      error.code === ErrorCode.ALREADY_MEMBER
        ? `This person is already a member of the ${where}. Change their role from the users list instead.`
        : error.code === ErrorCode.INVITATION_PENDING
          ? `This person already has a pending invitation to the ${where}. Send it again from their page in the users list.`
          : null;
    if (email) {
      form.setErrors((previous) => ({ ...previous, email }));
      return null;
    }
  }
  if (applyFieldErrors(form, error)) return null;
  if (error instanceof ApiError) {
    if (error.status === 0 || error.status >= 500)
      return 'The invitation could not be sent right now. Please try again in a moment.';
    if (error.code === ErrorCode.PERMISSION_DENIED)
      return `Your role does not allow giving this role or inviting here. Choose another role, or ${ASK(where).toLowerCase()}`;
    if (error.code === ErrorCode.NOT_FOUND)
      return `This ${where} no longer exists, or you are no longer a member of it. Go back to your dashboard.`;
  }
  return errorMessage(error);
}
