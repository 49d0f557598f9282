import type { FastifyInstance } from 'fastify';

/**
 * Spec §2: a plain-http visit of the production host is redirected to https. The production hosts
 * are the one of PUBLIC_URL when it is https, and those listed in FORCE_HTTPS_HOSTS. The server
 * itself speaks plain http behind a proxy that ends TLS, so it learns the visitor's protocol only
 * from X-Forwarded-Proto, which it may believe only with TRUST_PROXY on; without it the rule is off
 * (redirecting on the socket's protocol would loop forever behind such a proxy), and config.ts
 * refuses FORCE_HTTPS_HOSTS without TRUST_PROXY. 308 keeps the method and the body.
 *
 * A FORCE_HTTPS_HOSTS entry `host` matches that host on any port, `host:port` only on that port;
 * hosts compare in any case. Its redirect goes to `https://host` (the default port: the visited
 * port serves plain http) with the same path and query.
 */
export function registerHttpsRedirect(
  app: FastifyInstance,
  options: { publicUrl: string; trustProxy: boolean; forceHttpsHosts?: readonly string[] },
): void {
  if (!options.trustProxy) return;
  const url = new URL(options.publicUrl);
  const publicHost = url.protocol === 'https:' ? url.host.toLowerCase() : null;
  const forced = forcedHosts(options.forceHttpsHosts ?? app.ctx.config.forceHttpsHosts);
  if (!publicHost && forced.size === 0) return;

  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol !== 'http') return;
    const host = request.host.toLowerCase();
    if (host === publicHost) return reply.redirect(`https://${url.host}${request.url}`, 308);
    // The exact host and port first (a `host:port` entry), then the host name (a `host` entry,
    // any port); a `host:port` entry is never found by the host name alone.
    const target = forced.get(host) ?? forced.get(request.hostname.toLowerCase());
    if (target) return reply.redirect(`https://${target}${request.url}`, 308);
  });
}

/** Entry (lower case) → the host name to send the visitor to (without the entry's port). */
function forcedHosts(entries: readonly string[]): Map<string, string> {
  return new Map(
    entries.map((raw) => {
      const entry = raw.trim().toLowerCase();
      return [entry, entry.replace(/:\d+$/, '')];
    }),
  );
}
