// engine-parity: engine-independent, runs once, on PGlite
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../test/support/app.ts';
import { testEngine } from '../../test/support/database.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Writes raw bytes to the server and parses what comes back before it closes the socket. */
function rawRequest(
  port: number,
  bytes: string,
  onConnected?: (client: net.Socket) => void,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer; got ${JSON.stringify(Buffer.concat(chunks).toString())}`));
    }, 10_000);
    socket.on('connect', () => {
      if (bytes) socket.write(bytes);
      onConnected?.(socket);
    });
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {}); // a reset after the answer still counts
    socket.on('close', () => {
      clearTimeout(giveUp);
      // Interim answers (100 Continue) come before the final one.
      const text = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n\r\n)+/, '');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      try {
        resolve({
          status: Number(statusLine.split(' ')[1]),
          headers,
          body: JSON.parse(rest.join('\r\n')),
        });
      } catch {
        reject(new Error(`not a JSON answer: ${JSON.stringify(text)}`));
      }
    });
  });
}

const errorShape = (code: string) => ({ code, message: expect.any(String) });

// Node's HTTP server does not depend on the database engine: run once, in the pglite project.
describe.runIf(testEngine === 'pglite')('protocol-level errors on a listening server', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers headers larger than the server allows with 431 HEADERS_TOO_LARGE', async () => {
    const limit = (t.app.server as { maxHeaderSize?: number }).maxHeaderSize ?? http.maxHeaderSize;
    const res = await rawRequest(
      port,
      `GET /v1/config HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(limit + 1024)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.connection).toBe('close');
    expect(res.body).toEqual(errorShape(ErrorCode.HEADERS_TOO_LARGE));
  });

  it('answers an Expect other than 100-continue with 417 EXPECTATION_FAILED', async () => {
    const res = await rawRequest(
      port,
      'GET /v1/config HTTP/1.1\r\nHost: localhost\r\nExpect: something-else\r\n\r\n',
    );
    expect(res.status).toBe(417);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(errorShape(ErrorCode.EXPECTATION_FAILED));
  });

  it.each([
    ['a garbage request line', 'HELLO WORLD\r\n\r\n'],
    ['a header without a colon', 'GET /v1/config HTTP/1.1\r\nHost: localhost\r\nBroken\r\n\r\n'],
    ['a NUL in a header value', 'GET /v1/config HTTP/1.1\r\nHost: localhost\r\nX-A: a\0b\r\n\r\n'],
    ['a space in the URL', 'GET /v1/con fig HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    [
      'a bad chunked body',
      'POST /v1/rest-auth/app/login/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    ],
  ])('answers %s with 400 BAD_REQUEST', async (_name, bytes) => {
    const res = await rawRequest(port, bytes);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.connection).toBe('close');
    expect(res.body).toEqual(errorShape(ErrorCode.BAD_REQUEST));
  });

  it('answers malformed percent-encoding in the URL with 400 BAD_REQUEST', async () => {
    for (const url of ['/%', '/v1/%E0%A4%A', '/v1/rest-auth/user/%ZZ']) {
      const res = await rawRequest(
        port,
        `GET ${url} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual(errorShape(ErrorCode.BAD_REQUEST));
    }
  });

  it('answers a request that timed out with 408 REQUEST_TIMEOUT', async () => {
    // Node reports a request that did not arrive within requestTimeout as this client error.
    const serverSide = new Promise<net.Socket>((resolve) =>
      t.app.server.once('connection', resolve),
    );
    const res = await rawRequest(port, 'POST /v1/rest-auth/app/login/ HTTP/1.1\r\n', async () => {
      const socket = await serverSide;
      const err = Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
      t.app.server.emit('clientError', err, socket);
    });
    expect(res.status).toBe(408);
    expect(res.body).toEqual(errorShape(ErrorCode.REQUEST_TIMEOUT));
  });

  it('still serves well-formed requests, with Expect: 100-continue', async () => {
    const res = await rawRequest(
      port,
      'POST /v1/rest-auth/app/login/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n' +
        'Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n{}',
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(errorShape(ErrorCode.VALIDATION_ERROR));
  });
});

describe('malformed URLs through the router', () => {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('answers bad percent-encoding with 400 BAD_REQUEST', async () => {
    for (const url of ['/%', '/v1/%E0%A4%A', '/uploads/%', '/login%']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json(), url).toEqual(errorShape(ErrorCode.BAD_REQUEST));
    }
  });

  it('answers a path parameter over the router limit with 414 URI_TOO_LONG', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/uploads/${'a'.repeat(500)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual(errorShape(ErrorCode.URI_TOO_LONG));
  });

  it('answers API-looking paths in any case with the JSON 404, never the web app', async () => {
    for (const url of [
      '/V1/no-such-thing/',
      '/V1',
      '/v1',
      '/Docs/nothing',
      '/UPLOADS/x',
      '/uploads',
      '//v1/x',
      '/%76%31/x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json(), url).toEqual(errorShape(ErrorCode.NOT_FOUND));
    }
  });

  it('still serves the web app for its own paths', async () => {
    for (const url of ['/', '/login', '/v1x', '/v1-notes/a', '/documents']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
    }
  });
});
