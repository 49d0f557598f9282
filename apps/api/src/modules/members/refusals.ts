import { ErrorCode, MEMBER_REFUSAL_MESSAGES, type MemberRefusal } from '@portolan/contract';
import { AppError, conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';

/** The answers of the member rules (the contract's) and of the rules that need data. */

/** A refusal of the contract's member rules as the API answers it. */
export function refused(refusal: MemberRefusal): AppError {
  const message = MEMBER_REFUSAL_MESSAGES[refusal];
  switch (refusal) {
    case 'SELF':
      return new AppError(ErrorCode.OWN_MEMBERSHIP, message);
    case 'WORKSPACE_OWNER':
      return conflict(ErrorCode.WORKSPACE_OWNER, message);
    default:
      return forbidden(message);
  }
}

/** Throws the refusal, if any. */
export function assertAllowed(refusal: MemberRefusal | null): void {
  if (refusal) throw refused(refusal);
}

export const notAMember = (where: 'organization' | 'workspace') =>
  notFound(`This person is not a member of the ${where}.`);

/** The caller lost their place in the tenant while the request waited for its lock. */
export const callerOutside = () => notFound('Not found, or you are not a member of it.');

export const lastOwner = () =>
  conflict(
    ErrorCode.LAST_OWNER,
    'The organization needs an Owner: make another member Owner first.',
  );

export const membershipPending = () =>
  conflict(
    ErrorCode.MEMBERSHIP_PENDING,
    'This member has not accepted the invitation yet: cancel it and invite them again instead.',
  );

export const choiceField = (message: string) => fieldError('choice', message);
