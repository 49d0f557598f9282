import type { OutgoingHttpHeaders } from 'node:http';
import { errorBodySchema, NOTIFICATION_STREAMS_PER_USER } from '@portolan/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../context.ts';
import type { ChannelListener } from '../../db/listen.ts';
import { isDatabaseUnavailable } from '../../lib/database-errors.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { requireAuth } from '../access/index.ts';
import { NOTIFICATION_CHANNEL } from './create.ts';
import { BellHub } from './hub.ts';
import { countUnseen, countUnseenOf } from './repo.ts';
import { SseBell } from './stream.ts';

const tooManyBells = () =>
  tooManyRequests(
    `You have ${NOTIFICATION_STREAMS_PER_USER} notification streams open already. Close one and try again.`,
  );

/**
 * The bell in real time (decision 0008, "The stream"): GET /v1/user/notification/stream/ holds a
 * server-sent event stream per open bell, fed by one LISTEN per server instance, so a
 * notification made through any instance reaches a bell connected to any other.
 */
export async function streamRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const hub = new BellHub(
    (ids) => countUnseenOf(ctx.db, ids),
    NOTIFICATION_STREAMS_PER_USER,
    app.log,
  );
  let listener: ChannelListener | undefined;

  app.addHook('onReady', async () => {
    listener = ctx.database.listen(NOTIFICATION_CHANNEL, {
      notify: (userId) => hub.announce(userId),
      // First LISTEN, or LISTEN again after an outage: announcements may have been missed.
      listening: () => hub.announceAll(),
    });
    // Starting waits a moment for the first LISTEN, never longer: it keeps trying on its own.
    await Promise.race([
      listener.ready,
      new Promise((resolve) => setTimeout(resolve, ctx.config.databaseConnectTimeoutMs).unref()),
    ]);
  });
  // Open streams would hold the server's close for ever: they end first.
  app.addHook('preClose', async () => hub.endAll());
  app.addHook('onClose', async () => listener?.close());

  app.get('/v1/user/notification/stream/', {
    config: { access: { signedIn: 'the caller’s own unseen count' } },
    // A HEAD answer has no body, so its stream would only hold a connection.
    exposeHeadRoute: false,
    schema: {
      tags: ['notifications'],
      summary:
        'The unseen count in real time (server-sent events): `event: notification` with `{"count": N}` at once and on every change; `: heartbeat` comments; ends with the session',
      security: [{ bearerAuth: [] }],
      response: {
        200: {
          description: 'An event stream that stays open',
          content: { 'text/event-stream': { schema: z.string() } },
        },
        401: errorBodySchema,
        429: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const { userId } = requireAuth(request);
      if (hub.openFor(userId) >= NOTIFICATION_STREAMS_PER_USER) throw tooManyBells();
      const announcements = hub.announcements;
      // Before the stream opens, so a database that does not answer gets the usual 503.
      const count = await countUnseen(ctx.db, userId);
      const bell = new SseBell(reply.raw);
      // Checked again: several requests of one user may have counted at once.
      if (!hub.add(userId, bell)) throw tooManyBells();
      reply.hijack();
      bell.open(fastifyHeaders(reply), count);
      // A change announced while we counted may not be in `count`: count again for this user.
      if (hub.announcements !== announcements) hub.recount([userId]);
      keepAlive(app, request, reply, bell, () => hub.remove(userId, bell));
    },
  });
}

/** The headers set through Fastify (the rate limiter's, for one): the hijacked reply skips them. */
function fastifyHeaders(reply: FastifyReply): OutgoingHttpHeaders {
  return Object.fromEntries(
    Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined),
  ) as OutgoingHttpHeaders;
}

/**
 * Every heartbeat first checks the session as any request would (signature, expiry, live
 * session, enabled user): a stream ends within one heartbeat of a sign-out, a revoked session, an
 * expired or replaced token. While the database is unreachable the stream stays (the next check
 * decides). A client that goes away is forgotten at once.
 */
function keepAlive(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  bell: SseBell,
  forget: () => void,
): void {
  let checking = false;
  const beat = async () => {
    if (checking) return;
    checking = true;
    try {
      await app.authenticate(request);
      bell.heartbeat();
    } catch (err) {
      if (isDatabaseUnavailable(err)) bell.heartbeat();
      else bell.end();
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void beat(), app.ctx.config.notificationHeartbeatMs);
  const cleanUp = () => {
    clearInterval(timer);
    forget();
  };
  reply.raw.on('close', cleanUp);
  // The client may have gone while we counted: 'close' was then already emitted.
  if (bell.closed) cleanUp();
}
