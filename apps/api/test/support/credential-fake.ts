// A local stand-in for the operator's marketplace-seller credential checker (CREDENTIAL_CHECK_URL,
// apps/api/src/lib/credentials/http.ts), for the API tests and the browser tests.
//
//   GET  /check?client_id=<id>      the checker: answers as set for that workspace (default: valid)
//   POST /set {client_id, ...}      sets one workspace's answer: {is_valid, message} for a proper
//                                   answer, or {behaviour} for a broken one (see Behaviour)
//   POST /reset                     forgets every answer and the request log
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake answers a workspace's check. */
export type Behaviour =
  | { is_valid: boolean; message?: string | null }
  /** 200 with a body that is not JSON. */
  | { behaviour: 'garbage' }
  /** 200 with JSON of another shape. */
  | { behaviour: 'wrong-shape' }
  /** 500 with a JSON error. */
  | { behaviour: 'error' }
  /** Never answers (the connection stays open until the fake closes). */
  | { behaviour: 'hang' }
  /** 200 with a JSON body of 100 KiB. */
  | { behaviour: 'huge' };

export interface CredentialFake {
  /** The CREDENTIAL_CHECK_URL to configure. */
  checkUrl: string;
  /** The base URL (for POST /set and /reset). */
  baseUrl: string;
  set(clientId: string, behaviour: Behaviour | null): void;
  /** The client_id of every check asked, in order. */
  readonly checks: string[];
  /** Every query string of the checks, as received. */
  readonly queries: URLSearchParams[];
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: string, type = 'application/json') {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function answer(res: http.ServerResponse, behaviour: Behaviour | undefined) {
  if (!behaviour) return send(res, 200, JSON.stringify({ is_valid: true, message: null }));
  if (!('behaviour' in behaviour)) {
    return send(
      res,
      200,
      JSON.stringify({ is_valid: behaviour.is_valid, message: behaviour.message ?? null }),
    );
  }
  switch (behaviour.behaviour) {
    case 'garbage':
      return send(res, 200, '<html>not json{', 'application/json');
    case 'wrong-shape':
      return send(res, 200, JSON.stringify({ valid: 'no', text: 'expired' }));
    case 'error':
      return send(res, 500, JSON.stringify({ error: 'internal' }));
    case 'hang':
      return;
    case 'huge':
      return send(res, 200, JSON.stringify({ is_valid: false, message: 'x'.repeat(100 * 1024) }));
  }
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', reject);
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

function isBehaviour(value: unknown): value is Behaviour {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (typeof v.is_valid === 'boolean')
    return v.message === undefined || v.message === null || typeof v.message === 'string';
  return ['garbage', 'wrong-shape', 'error', 'hang', 'huge'].includes(String(v.behaviour));
}

/** Starts the fake on 127.0.0.1 (port 0: a free one). */
export async function startCredentialFake(port = 0): Promise<CredentialFake> {
  const table = new Map<string, Behaviour>();
  const checks: string[] = [];
  const queries: URLSearchParams[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/check') {
      const clientId = url.searchParams.get('client_id') ?? '';
      checks.push(clientId);
      queries.push(url.searchParams);
      return answer(res, table.get(clientId));
    }
    if (req.method === 'POST' && url.pathname === '/set') {
      readJson(req).then(
        (body) => {
          const b = body as { client_id?: unknown } | null;
          const clientId = typeof b?.client_id === 'string' ? b.client_id : '';
          const { client_id: _, ...rest } = (b ?? {}) as Record<string, unknown>;
          if (!clientId || !isBehaviour(rest)) return send(res, 400, '{"error":"bad body"}');
          table.set(clientId, rest);
          send(res, 204, '');
        },
        () => send(res, 400, '{"error":"not json"}'),
      );
      return;
    }
    if (req.method === 'POST' && url.pathname === '/reset') {
      table.clear();
      checks.length = 0;
      queries.length = 0;
      return send(res, 204, '');
    }
    send(res, 404, '{"error":"not found"}');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${bound}`;
  return {
    checkUrl: `${baseUrl}/check`,
    baseUrl,
    set(clientId, behaviour) {
      if (behaviour) table.set(clientId, behaviour);
      else table.delete(clientId);
    },
    checks,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging checks hold their connections open: end them, or close would wait for ever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
