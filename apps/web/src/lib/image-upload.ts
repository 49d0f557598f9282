import { UPLOAD_IMAGE_TYPES, UPLOAD_MAX_BYTES, type UploadResponse } from '@portolan/contract';
import { api } from './api';
import { ApiError, errorMessage } from './api-error';
import { ErrorCode } from './error-codes';

/** For a file input's `accept`: the image types the server takes (POST /v1/upload/). */
export const IMAGE_ACCEPT = UPLOAD_IMAGE_TYPES.join(',');
export const IMAGE_MAX_MB = UPLOAD_MAX_BYTES / (1024 * 1024);

const UNSUPPORTED_TYPE = 'This file type is not supported. Choose a PNG, JPEG, WebP or GIF image.';

/** What is wrong with a chosen image before it is sent (type, size), or null: no upload in vain. */
export function imageFileProblem(file: File): string | null {
  if (!(UPLOAD_IMAGE_TYPES as readonly string[]).includes(file.type)) return UNSUPPORTED_TYPE;
  if (file.size > UPLOAD_MAX_BYTES)
    return `This image is larger than ${IMAGE_MAX_MB} MB. Choose a smaller one.`;
  return null;
}

/**
 * A failed upload said by its status or code. `what` names the image for the case where trying
 * again later helps ("The logo", "Your photo").
 */
export function imageUploadProblem(error: unknown, what: string): string {
  if (error instanceof ApiError) {
    if (error.status === 413 || error.code === ErrorCode.PAYLOAD_TOO_LARGE)
      return `This image is too large: the limit is ${IMAGE_MAX_MB} MB. Choose a smaller one.`;
    if (error.status === 415 || error.code === ErrorCode.UNSUPPORTED_MEDIA_TYPE)
      return UNSUPPORTED_TYPE;
    if (error.status >= 500 || error.status === 0)
      return `${what} could not be uploaded right now. Please try again in a moment.`;
  }
  return errorMessage(error);
}

/**
 * POST /v1/upload/ (multipart, field `file`) → {url}, which the caller then sends (a logo, an
 * avatar). `loadingMessage` is shown while it runs.
 */
export function uploadImage(file: File, loadingMessage: string) {
  const body = new FormData();
  body.append('file', file);
  return api.post<UploadResponse>('/v1/upload/', body, { loadingMessage });
}
