import dns from 'node:dns';
import net from 'node:net';

/**
 * Where a webhook may not go (server-side request forgery): an organization must not make the
 * server call its own network (a database, the cloud's metadata service at 169.254.169.254).
 * Checked at delivery time on the addresses the host resolves to, and the connection is made to
 * the address checked (`guardedLookup`), so a name that resolves elsewhere a moment later (DNS
 * rebinding) cannot slip past. WEBHOOK_ALLOW_PRIVATE_TARGETS=true turns it off (a receiver on the
 * same machine, tests).
 */

const FORBIDDEN = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network", the unspecified address
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  FORBIDDEN.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some)
  ['fc00::', 7], // unique local
  ['ff00::', 8], // multicast
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
] as const) {
  FORBIDDEN.addSubnet(prefix, bits, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (net.isIPv6 holds), a trailing dotted quad included. */
function groupsOf(address: string): number[] {
  let text = address.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const first = head ? head.split(':') : [];
  const last = tail ? tail.split(':') : [];
  const gap = tail === undefined ? 0 : 8 - first.length - last.length;
  return [...first, ...Array<string>(gap).fill('0'), ...last].map((g) => parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 one carries: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
 * (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d), each of which reaches that IPv4 address.
 */
function embeddedIpv4(address: string): string | null {
  const g = groupsOf(address);
  const prefix = g.slice(0, 6).join(':');
  if (!['0:0:0:0:0:65535', '0:0:0:0:0:0', '100:65435:0:0:0:0'].includes(prefix)) return null;
  const [hi = 0, lo = 0] = g.slice(6);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * True for an address a webhook may not reach: private, loopback, link-local, unique-local,
 * multicast, unspecified or reserved, and the IPv6 forms that carry such an IPv4 address. Anything
 * that is not an IP address at all is refused too.
 */
export function isForbiddenAddress(address: string): boolean {
  const plain = address.replace(/%.*$/, ''); // a zone (fe80::1%eth0) names an interface
  const family = net.isIP(plain);
  if (family === 4) return FORBIDDEN.check(plain, 'ipv4');
  if (family !== 6) return true;
  if (FORBIDDEN.check(plain, 'ipv6')) return true;
  const v4 = embeddedIpv4(plain);
  return v4 !== null && FORBIDDEN.check(v4, 'ipv4');
}

/** The host of a URL when it is an IP address written out (brackets of IPv6 removed), else null. */
export function literalAddressOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return net.isIP(host) ? host : null;
}

/** A delivery refused before any request: the target is on a forbidden address. */
export class TargetRefused extends Error {
  constructor(host: string, address: string) {
    super(
      host === address
        ? `Refused: ${address} is a private, loopback or link-local address; nothing was sent.`
        : `Refused: ${host} resolves to ${address}, a private, loopback or link-local address; nothing was sent.`,
    );
    this.name = 'TargetRefused';
  }
}

/**
 * The `lookup` of http(s).request: resolves the host, refuses it when any of its addresses is
 * forbidden, and hands the connection exactly the addresses it checked. (An IP address written in
 * the URL is never looked up: the sender checks it before the request.)
 */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(
      hostname,
      { family: options.family, hints: options.hints, all: true },
      (err, found) => {
        if (err) return callback(err, '', 0);
        const refused = allowPrivate ? undefined : found.find((a) => isForbiddenAddress(a.address));
        if (refused) return callback(new TargetRefused(hostname, refused.address), '', 0);
        const [first] = found;
        if (!first)
          return callback(
            Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        if (options.all) return callback(null, found);
        callback(null, first.address, first.family);
      },
    );
  };
}
