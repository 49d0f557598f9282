import type { FastifyInstance } from 'fastify';

/**
 * Spec §2: a plain-http visit of the production host is redirected to https. The production host
 * is the one of PUBLIC_URL when it is https. The server itself speaks plain http behind a proxy
 * that ends TLS, so it learns the visitor's protocol only from X-Forwarded-Proto, which it may
 * believe only with TRUST_PROXY on; without it the rule is off (redirecting on the socket's
 * protocol would loop forever behind such a proxy). 308 keeps the method and the body.
 */
export function registerHttpsRedirect(
  app: FastifyInstance,
  options: { publicUrl: string; trustProxy: boolean },
): void {
  const url = new URL(options.publicUrl);
  if (url.protocol !== 'https:' || !options.trustProxy) return;
  const host = url.host.toLowerCase();
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol !== 'http' || request.host.toLowerCase() !== host) return;
    return reply.redirect(`https://${url.host}${request.url}`, 308);
  });
}
