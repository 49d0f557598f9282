import { ErrorCode, type ErrorDetail } from '@portolan/contract';
import { AppError } from '../../lib/errors.ts';

/**
 * A 400 VALIDATION_ERROR naming every item of a list whose id is not among `found` (a rule or a
 * role that does not exist here), like the request schema names a malformed one. Nothing has been
 * written when it is thrown.
 */
export function refuseUnknownItems(
  field: string,
  idField: string,
  ids: readonly string[],
  found: ReadonlySet<string>,
  message: string,
): void {
  refuseItems(
    ids.flatMap((id, i) => (found.has(id) ? [] : [{ field: `${field}.${i}.${idField}`, message }])),
  );
}

/** A 400 VALIDATION_ERROR with these details, when there are any. */
export function refuseItems(details: readonly ErrorDetail[]): void {
  const first = details[0];
  if (first) {
    throw new AppError(ErrorCode.VALIDATION_ERROR, `${first.field}: ${first.message}`, details);
  }
}
