// engine-parity: engine-independent, runs once, on PGlite
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/support/app.ts';
import { testEngine } from '../test/support/database.ts';

/** What a raw socket got before the server closed it, and when. */
interface Outcome {
  data: string;
  closedAfterMs: number;
}

/** Opens a socket, writes `chunks`, and waits (at most `waitMs`) for the server to close it. */
function rawExchange(port: number, chunks: string[], waitMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${waitMs} ms; received: ${JSON.stringify(data)}`));
    }, waitMs);
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => {}); // a reset counts as closed
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ data, closedAfterMs: performance.now() - started });
    });
  });
}

// HTTP server settings do not depend on the database engine: run once, in the pglite project.
describe.runIf(testEngine === 'pglite')('HTTP server timeouts (a listening server)', () => {
  const REQUEST_TIMEOUT_MS = 1_000;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      KEEP_ALIVE_TIMEOUT_MS: '5000',
      MAX_CONNECTIONS: '3',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 408 and closes a request whose body never arrives', async () => {
    const outcome = await rawExchange(
      port,
      [
        'POST /v1/rest-auth/app/login/ HTTP/1.1\r\nHost: localhost\r\n' +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      ],
      REQUEST_TIMEOUT_MS + 4_000,
    );
    expect(outcome.data).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_500);
  });

  it('closes a connection whose headers never end', async () => {
    const outcome = await rawExchange(
      port,
      ['GET /v1/config HTTP/1.1\r\nHost: localhost\r\nX-Slow: '],
      REQUEST_TIMEOUT_MS + 4_000,
    );
    expect(outcome.data).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_500);
  });

  it('closes a connection that never sends anything', async () => {
    const outcome = await rawExchange(port, [], REQUEST_TIMEOUT_MS + 4_000);
    expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_500);
  });

  it('announces its keep-alive timeout', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/config`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get('keep-alive')).toBe('timeout=5');
  });

  it('closes connections beyond MAX_CONNECTIONS at once, and serves again after', async () => {
    const held: net.Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const socket = net.connect(port, '127.0.0.1');
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('connect', resolve));
        held.push(socket);
      }
      // The server counts a connection once it accepted it.
      await expect
        .poll(
          () =>
            new Promise<number>((resolve) =>
              t.app.server.getConnections((_e, n) => resolve(n ?? 0)),
            ),
        )
        .toBe(3);
      const outcome = await rawExchange(
        port,
        ['GET /v1/config HTTP/1.1\r\nHost: localhost\r\n\r\n'],
        500,
      );
      expect(outcome.data).toBe('');
      expect(outcome.closedAfterMs).toBeLessThan(500);
    } finally {
      for (const socket of held) socket.destroy();
    }
    await expect
      .poll(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/v1/config`).catch(() => null);
        await res?.arrayBuffer();
        return res?.status;
      })
      .toBe(200);
  });
});
