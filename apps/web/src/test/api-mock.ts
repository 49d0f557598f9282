import { vi } from 'vitest';

/** A recorded call to the stubbed fetch. */
export interface RecordedCall {
  method: string;
  path: string;
  url: string;
  headers: Headers;
  body: unknown;
}

export type Reply =
  Response | Promise<Response> | ((call: RecordedCall) => Response | Promise<Response>);

/** A JSON Response like the API's. */
export function json(body: unknown, status = 200): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/** The API's error shape. */
export function apiError(status: number, code: string, message: string, details?: unknown) {
  return json(details === undefined ? { code, message } : { code, message, details }, status);
}

export const publicConfig = {
  version: 'v1.7.4',
  brand: 'Portolan',
  app_profile: 'transit',
  modules: ['TR'],
  launchable_modules: [],
  support_email: 'support@example.com',
  features: {
    registration: true,
    google_login: false,
    billing: true,
    auto_pick_workspace: false,
    modern_look: false,
    analytics: true,
  },
};

export const ada = {
  user_id: '5f0c7f4e-8a59-4d1b-9f6e-0d2c1b7a3e10',
  pk: '5f0c7f4e-8a59-4d1b-9f6e-0d2c1b7a3e10',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone: '',
  avatar: null,
  can_create_client: true,
};

function parseBody(init: RequestInit | undefined): unknown {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as unknown;
    } catch {
      return body;
    }
  }
  return body;
}

/**
 * Stubs the global fetch with real Response objects. Handlers are keyed "METHOD /path" (the
 * query string is ignored for matching); a handler given as an array answers in turn, the last
 * one repeating. Unknown calls answer 404 and are recorded, so a test sees them.
 */
export function mockApi(handlers: Record<string, Reply | Reply[]> = {}) {
  const calls: RecordedCall[] = [];
  const counters = new Map<string, number>();
  const table = new Map(Object.entries(handlers));

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const parsed = new URL(url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      path: parsed.pathname,
      url,
      headers: new Headers(init?.headers),
      body: parseBody(init),
    };
    calls.push(call);
    const key = `${method} ${parsed.pathname}`;
    const entry = table.get(key);
    if (entry === undefined) return apiError(404, 'NOT_FOUND', `No handler for ${key}`);
    let reply: Reply;
    if (Array.isArray(entry)) {
      const n = counters.get(key) ?? 0;
      counters.set(key, n + 1);
      reply = entry[Math.min(n, entry.length - 1)] as Reply;
    } else {
      reply = entry;
    }
    const response = typeof reply === 'function' ? await reply(call) : await reply;
    // A Response body can be read once: hand out a copy so repeated handlers keep working.
    return response.clone();
  });

  vi.stubGlobal('fetch', fetchMock);

  return {
    fetch: fetchMock,
    calls,
    on(key: string, reply: Reply | Reply[]) {
      table.set(key, reply);
      counters.delete(key);
    },
    callsTo(key: string) {
      const [method, path] = key.split(' ');
      return calls.filter((c) => c.method === method && c.path === path);
    },
  };
}

/** A JWT-shaped token (unsigned: the client never verifies) expiring `minutes` from now. */
export function tokenExpiringIn(minutes: number, now = Date.now()): string {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const exp = Math.floor(now / 1000 + minutes * 60);
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: ada.user_id, sid: 's1', exp })}.signature`;
}
