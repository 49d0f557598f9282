import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';

/**
 * What the logs show of a URL: the path without its query (which can carry one-time tokens), and
 * a share link's token replaced (it is the link's whole secret).
 */
export const pathOf = (url: string) =>
  (url.split('?')[0] ?? url).replace(/\/share\/[^/]+/g, '/share/:token');

/**
 * One line per request: `GET /v1/config 200 0.4ms`, with the same facts as fields for JSON logs.
 * Fastify's own two lines per request (incoming, completed, each with nested objects) are kept
 * for `LOG_LEVEL=debug`; a person watching a terminal reads one line, a machine parses fields.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const method = request.method;
    const path = pathOf(request.url);
    const statusCode = reply.statusCode;
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    const line = `${method} ${path} ${statusCode} ${responseTime}ms`;
    const fields = { method, path, statusCode, responseTime };
    if (error) reply.log.error({ ...fields, err: error }, line);
    else reply.log.info(fields, line);
  }
}

/** Fields of the request line that pino-pretty leaves out, since the message says them. */
export const REQUEST_LINE_FIELDS = ['method', 'path', 'statusCode', 'responseTime'];

/**
 * Errors as pino serialises them, less the parameters of a failed query: Drizzle puts them in
 * the message ("Failed query: …\nparams: …"), and they hold e-mails, password hashes and codes.
 */
export function serializeError(err: Error) {
  const out: ReturnType<typeof pino.stdSerializers.err> & { params?: unknown } =
    pino.stdSerializers.err(err);
  if (!('params' in err) || !('query' in err)) return out;
  const params = `params: ${String(err.params)}`;
  const redacted = 'params: [redacted]';
  out.message = out.message.replaceAll(params, redacted);
  out.stack = out.stack.replaceAll(params, redacted);
  delete out.params;
  return out;
}
