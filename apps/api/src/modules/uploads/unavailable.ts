import { ErrorCode } from '@portolan/contract';
import { AppError } from '../../lib/errors.ts';
import { StorageUnavailableError } from '../../lib/s3/client.ts';

/**
 * What a route throws when the file store failed: a store that cannot be reached or refuses the
 * portal's credentials (StorageUnavailableError) answers 503 SERVICE_UNAVAILABLE, its cause
 * logged with the error and none of it in the answer; anything else goes on as it was.
 */
export function storageFailure(err: unknown): unknown {
  if (!(err instanceof StorageUnavailableError)) return err;
  const failure = new AppError(
    ErrorCode.SERVICE_UNAVAILABLE,
    'Files cannot be stored or read just now. Please try again in a moment.',
  );
  failure.cause = err;
  return failure;
}
