import { ErrorCode, type ErrorBody, type ErrorDetail } from '@portolan/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, SERVICE_UNAVAILABLE } from '../lib/database-errors.ts';
import { AppError, errorAnswer, type ErrorAnswer } from '../lib/errors.ts';

/**
 * One error shape for every failure: {code, message, details?}. Validation errors name each
 * field; anything unexpected is a 500 that logs the cause and shows none of it.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const { status, body } = toErrorResponse(err);
    if (status >= 500) request.log.error({ err }, 'unhandled error');
    else request.log.debug({ code: body.code, status }, body.message);
    // A limit that knows when it lifts says so the standard way too (an API key's, say).
    const retryAfter =
      err instanceof AppError && (err.details as { retry_after_s?: unknown })?.retry_after_s;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
    return sendError(reply, { status, body });
  });
}

export function sendError(
  reply: FastifyReply,
  { status, body }: ErrorAnswer | { status: number; body: ErrorBody },
) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('application/json')
    .send(body);
}

/** What Fastify refuses by itself, by the status it gives (their codes' statuses). */
const FRAMEWORK_REFUSALS = new Map(
  [
    errorAnswer(ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is too large.'),
    errorAnswer(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      'Unsupported content type: send application/json.',
    ),
    errorAnswer(ErrorCode.RATE_LIMITED, 'Too many requests. Try again in a few minutes.'),
    errorAnswer(ErrorCode.NOT_AUTHENTICATED, 'Sign in to continue.'),
    errorAnswer(ErrorCode.NOT_FOUND, 'Not found.'),
    errorAnswer(ErrorCode.METHOD_NOT_ALLOWED, 'Method not allowed.'),
  ].map((answer) => [answer.status, answer]),
);

function toErrorResponse(err: FastifyError): { status: number; body: ErrorBody } {
  if (err instanceof AppError) return errorAnswer(err.code, err.message, err.details);
  // The database is down or not answering (lib/database-errors.ts): 503, and it passes by itself.
  if (isDatabaseUnavailable(err)) return SERVICE_UNAVAILABLE;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details = validationDetails(err);
    const first = details[0];
    return errorAnswer(
      ErrorCode.VALIDATION_ERROR,
      first ? `${first.field}: ${first.message}` : 'The request is not valid.',
      details,
    );
  }
  const status = err.statusCode ?? 500;
  if (
    err instanceof SyntaxError ||
    err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
  ) {
    return errorAnswer(ErrorCode.INVALID_JSON, 'The request body is not valid JSON.');
  }
  const refusal = FRAMEWORK_REFUSALS.get(status);
  if (refusal) return refusal;
  if (status >= 400 && status < 500) {
    // Fastify's own refusals (a body that does not match its Content-Length, …): no field is at
    // fault, so not VALIDATION_ERROR. They keep Fastify's status.
    return { status, body: { code: ErrorCode.BAD_REQUEST, message: err.message } };
  }
  return errorAnswer(
    ErrorCode.INTERNAL_ERROR,
    'Something went wrong on our side. Please try again in a moment.',
  );
}

function validationDetails(err: FastifyError): ErrorDetail[] {
  const context = err.validationContext ?? 'body';
  const details: ErrorDetail[] = [];
  for (const issue of err.validation ?? []) {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const params = issue.params as { keys?: string[] } | undefined;
    if (issue.keyword === 'unrecognized_keys' && params?.keys) {
      for (const key of params.keys) {
        details.push({ field: path ? `${path}.${key}` : key, message: 'Unknown field.' });
      }
      continue;
    }
    details.push({ field: path || context, message: issue.message ?? 'Invalid value.' });
  }
  return details;
}
