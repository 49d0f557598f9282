import { ErrorCode, type ErrorBody, type ErrorDetail } from '@portolan/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, SERVICE_UNAVAILABLE_BODY } from '../lib/database-errors.ts';
import { AppError } from '../lib/errors.ts';

/**
 * One error shape for every failure: {code, message, details?}. Validation errors name each
 * field; anything unexpected is a 500 that logs the cause and shows none of it.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const { status, body } = toErrorResponse(err);
    if (status >= 500) request.log.error({ err }, 'unhandled error');
    else request.log.debug({ code: body.code, status }, body.message);
    return sendError(reply, status, body);
  });
}

export function sendError(reply: FastifyReply, status: number, body: ErrorBody) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('application/json')
    .send(body);
}

function toErrorResponse(err: FastifyError): { status: number; body: ErrorBody } {
  if (err instanceof AppError) {
    return {
      status: err.statusCode,
      body: {
        code: err.code,
        message: err.message,
        ...(err.details !== undefined && { details: err.details }),
      },
    };
  }
  // The database is down or not answering (lib/database-errors.ts): 503, and it passes by itself.
  if (isDatabaseUnavailable(err)) return { status: 503, body: SERVICE_UNAVAILABLE_BODY };
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details = validationDetails(err);
    const first = details[0];
    return {
      status: 400,
      body: {
        code: ErrorCode.VALIDATION_ERROR,
        message: first ? `${first.field}: ${first.message}` : 'The request is not valid.',
        details,
      },
    };
  }
  const status = err.statusCode ?? 500;
  if (
    err instanceof SyntaxError ||
    err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
  ) {
    return {
      status: 400,
      body: { code: ErrorCode.INVALID_JSON, message: 'The request body is not valid JSON.' },
    };
  }
  switch (status) {
    case 413:
      return {
        status,
        body: { code: ErrorCode.PAYLOAD_TOO_LARGE, message: 'The request body is too large.' },
      };
    case 415:
      return {
        status,
        body: {
          code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          message: 'Unsupported content type: send application/json.',
        },
      };
    case 429:
      return {
        status,
        body: {
          code: ErrorCode.RATE_LIMITED,
          message: 'Too many requests. Try again in a few minutes.',
        },
      };
    case 401:
      return {
        status,
        body: { code: ErrorCode.NOT_AUTHENTICATED, message: 'Sign in to continue.' },
      };
    case 404:
      return { status, body: { code: ErrorCode.NOT_FOUND, message: 'Not found.' } };
    case 405:
      return {
        status,
        body: { code: ErrorCode.METHOD_NOT_ALLOWED, message: 'Method not allowed.' },
      };
  }
  if (status >= 400 && status < 500) {
    // Fastify's own refusals (a body that does not match its Content-Length, …): no field is at
    // fault, so not VALIDATION_ERROR.
    return { status, body: { code: ErrorCode.BAD_REQUEST, message: err.message } };
  }
  return {
    status: 500,
    body: {
      code: ErrorCode.INTERNAL_ERROR,
      message: 'Something went wrong on our side. Please try again in a moment.',
    },
  };
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
