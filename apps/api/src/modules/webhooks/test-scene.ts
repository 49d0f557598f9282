import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventType } from '@portolan/contract';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import type { Person, TenantScene } from '../../../test/support/tenants.ts';
import { FACTORY_PASSWORD } from '../../seed/factories.ts';
import { recordEvent } from '../events/index.ts';

/** One request the receiver got. */
export interface Received {
  id: string;
  timestamp: number;
  signatures: string[];
  body: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A local receiver (node:http on 127.0.0.1): the test double of a customer's system. It keeps
 * every request and answers what `answer` says (200 unless told), with a short text body.
 */
export async function startReceiver() {
  const received: Received[] = [];
  let answer: (request: Received) => number = () => 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        id: String(req.headers['webhook-id']),
        timestamp: Number(req.headers['webhook-timestamp']),
        signatures: String(req.headers['webhook-signature'] ?? '').split(' '),
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      };
      received.push(request);
      const status = answer(request);
      // A redirect points elsewhere on the receiver: a sender that followed it would come back.
      const location = status >= 300 && status < 400 ? { location: '/elsewhere' } : {};
      res.writeHead(status, { 'content-type': 'text/plain', ...location });
      res.end(`receiver says ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer(fn: (request: Received) => number) {
      answer = fn;
    },
    /** How many times each webhook-id arrived. */
    countsById(): Map<string, number> {
      const counts = new Map<string, number>();
      for (const r of received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * Checks a request's signature with the standardwebhooks package (an implementation that is not
 * ours) for `secret`: the signature it computes is among those sent and, when the attempt's
 * timestamp is near the real time (the spec's 5-minute tolerance; tests move the app's clock),
 * its `verify` accepts the whole request. Answers the payload.
 */
export function verifiedWith(secret: string, request: Received): unknown {
  const wh = new Webhook(secret);
  expect(request.signatures).toContain(
    wh.sign(request.id, new Date(request.timestamp * 1000), request.body),
  );
  if (Math.abs(request.timestamp - Date.now() / 1000) < 240) {
    return wh.verify(request.body, {
      'webhook-id': request.id,
      'webhook-timestamp': String(request.timestamp),
      'webhook-signature': request.signatures.join(' '),
    });
  }
  return JSON.parse(request.body);
}

/** Records an event of the organization as a change's transaction does (the events module). */
export async function emit(
  t: TestApp,
  organizationId: string,
  type: EventType,
  subject: string,
  data: Record<string, unknown> = {},
): Promise<string> {
  return t.ctx.db.transaction((tx) =>
    recordEvent(tx, { organizationId, type, subject, data, at: t.clock.now() }),
  );
}

/** A fresh proof of presence for `who` (the app's clock may have moved past STEP_UP_MAX_AGE_S). */
export async function stepUp(s: TenantScene, who: Person): Promise<void> {
  const res = await s.send('POST', '/v1/user/step-up/', who, { password: FACTORY_PASSWORD });
  if (res.statusCode !== 200) throw new Error(`step-up failed: ${res.body}`);
}

/** An endpoint made through the API by `who` (OWNER unless told); answers it with its secret. */
export async function addEndpoint(
  s: TenantScene,
  url: string,
  fields: { events?: string[]; description?: string; orgId?: string; who?: Person } = {},
) {
  const who = fields.who ?? s.people.OWNER;
  const create = () =>
    s.send('POST', `/v1/organizations/${fields.orgId ?? s.orgId}/webhooks/`, who, {
      url,
      events: fields.events ?? ['member.added'],
      description: fields.description ?? 'test receiver',
    });
  let res = await create();
  if (res.statusCode === 403 && res.json().code === 'STEP_UP_REQUIRED') {
    await stepUp(s, who);
    res = await create();
  }
  if (res.statusCode !== 201) throw new Error(`endpoint not made: ${res.body}`);
  return res.json() as { id: string; secret: string; url: string };
}
