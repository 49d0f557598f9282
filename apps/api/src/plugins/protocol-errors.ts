import http from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode, type ErrorBody } from '@portolan/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorAnswer, type ErrorAnswer } from '../lib/errors.ts';
import { sendError } from './errors.ts';

/**
 * The error shape below the routes: answers that Node's HTTP server or Fastify's router would
 * otherwise give with a body of their own (or none). Every one is {code, message} JSON.
 *
 * - `clientErrorHandler`: the HTTP parser refused the bytes (garbage request line, headers over
 *   the server's maxHeaderSize: 431) or the request did not arrive in time (408). There is no
 *   request yet, so the answer is written to the socket, which is then closed.
 * - `frameworkErrors`: the router could not decode the URL (`/%`, a cut-off UTF-8 escape: 400) or
 *   a path parameter is longer than the router allows (414).
 * - `registerProtocolErrors`: an `Expect` header other than 100-continue (417).
 */

const INTERNAL = errorAnswer(
  ErrorCode.INTERNAL_ERROR,
  'Something went wrong on our side. Please try again in a moment.',
);

/** What Node's HTTP server reports about a connection before there is a request. */
export function clientErrorAnswer(nodeCode: string | undefined): ErrorAnswer {
  switch (nodeCode) {
    case 'HPE_HEADER_OVERFLOW':
      return errorAnswer(ErrorCode.HEADERS_TOO_LARGE, 'The request headers are too large.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return errorAnswer(ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errorAnswer(
        ErrorCode.REQUEST_TIMEOUT,
        'The request did not arrive in time. Please try again.',
      );
    default:
      return errorAnswer(ErrorCode.BAD_REQUEST, 'The request is not valid HTTP.');
  }
}

/** A complete HTTP/1.1 answer with a JSON error body, closing the connection. */
export function rawErrorResponse(status: number, body: ErrorBody): string {
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}

type ServerSocket = Socket & { _httpMessage?: { headersSent?: boolean } | null };

function onClientError(
  this: FastifyInstance,
  err: Error & { code?: string },
  socket: ServerSocket,
): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = clientErrorAnswer(err.code);
  this.log.debug({ code: err.code, status }, 'client error');
  // As Node does: answer only if no answer of an earlier request on this socket has begun.
  if (socket.writable && !socket._httpMessage?.headersSent) {
    socket.end(rawErrorResponse(status, body));
    // Whatever the peer still sends is not read; do not hold the socket for it.
    socket.setTimeout(2_000, () => socket.destroy());
  } else {
    socket.destroy();
  }
}

function onFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      request.log.debug({ code: err.code }, 'bad URL');
      return sendError(
        reply,
        errorAnswer(ErrorCode.BAD_REQUEST, 'The URL is not valid: check its percent-encoding.'),
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      request.log.debug({ code: err.code }, 'path parameter too long');
      return sendError(
        reply,
        errorAnswer(ErrorCode.URI_TOO_LONG, 'A part of the URL is too long.'),
      );
    default:
      request.log.error({ err }, 'framework error');
      return sendError(reply, INTERNAL);
  }
}

/** Spread into the Fastify server options (they cannot be set after the instance is made). */
export const protocolErrorOptions = {
  clientErrorHandler: onClientError,
  frameworkErrors: onFrameworkError,
};

/** Listeners on the HTTP server itself: Node answers these before Fastify sees a request. */
export function registerProtocolErrors(app: FastifyInstance): void {
  // Without a listener Node answers an unknown expectation with an empty 417.
  app.server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    app.log.debug({ expect: req.headers.expect }, 'unsupported expectation');
    const { status, body } = errorAnswer(
      ErrorCode.EXPECTATION_FAILED,
      'Only "Expect: 100-continue" is supported.',
    );
    const json = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(json),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    res.end(json);
  });
}
