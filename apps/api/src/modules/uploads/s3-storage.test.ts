import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, uploadResponseSchema } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  type TestApp,
} from '../../../test/support/app.ts';
import {
  startAnotherInstance,
  type AnotherInstance,
} from '../../../test/support/another-instance.ts';
import { startLocalS3, S3_SECRET, type LocalS3 } from '../../../test/support/s3-server.ts';
import type { App } from '../../context.ts';
import { uploads } from '../../db/schema/index.ts';
import { fileStorageFor } from './storage-for.ts';

/**
 * Uploads on an S3-compatible store (STORAGE_URL): instance A takes the upload, instance B — same
 * database, a DATA_DIR of its own — serves it, through the portal with the portal's headers.
 * The store is a real S3 server (S3rver) that checks every request's signature.
 */

// A real 1×1 PNG, and a second, different image (a GIF signature and some bytes).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(4096, 7)]);
const BOUNDARY = '----portolan-s3-boundary';
const form = (bytes: Buffer, filename: string) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);

describe('uploads on an S3-compatible store', () => {
  let s3: LocalS3;
  let a: TestApp;
  let b: AnotherInstance;
  let token: string;

  beforeAll(async () => {
    s3 = await startLocalS3();
    a = await createTestApp({ STORAGE_URL: s3.storageUrl() });
    b = await startAnotherInstance(a, { STORAGE_URL: s3.storageUrl() });
    const { email, password } = await registerActiveUser(a);
    token = await signIn(a, email, password);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await s3?.stop();
  });

  const upload = (app: App, bytes: Buffer, filename = 'me.png') =>
    app.inject({
      method: 'POST',
      url: '/v1/upload/',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...bearer(token) },
      payload: form(bytes, filename),
    });
  const rowsOf = async (key: string) =>
    a.ctx.db.select().from(uploads).where(eq(uploads.storage_key, key));
  const rowCount = async () => (await a.ctx.db.select().from(uploads)).length;
  const keyOf = (url: string) => url.slice('/uploads/'.length);

  it('stores an avatar through A in the bucket and serves it byte-identical through B', async () => {
    const res = await upload(a.app, PNG);
    expect(res.statusCode, res.body).toBe(201);
    const { url } = uploadResponseSchema.parse(res.json());
    expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    // In the bucket, not on A's disk.
    expect((await s3.stored(`uploads/${keyOf(url)}`))?.equals(PNG)).toBe(true);
    expect(fs.existsSync(path.join(a.ctx.config.dataDir, 'uploads'))).toBe(false);
    expect(await rowsOf(keyOf(url))).toHaveLength(1);

    // It becomes the avatar through B, which checks the upload is the caller's own.
    const patched = await b.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/user/',
      headers: bearer(token),
      payload: { avatar: url },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().avatar).toBe(url);

    const served = await b.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(PNG.length),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(fs.existsSync(path.join(b.dataDir, 'uploads'))).toBe(false);
  });

  it('replaces the avatar with a new upload and deletes the old file for every instance', async () => {
    const first = uploadResponseSchema.parse((await upload(a.app, PNG)).json()).url;
    const second = await upload(b.app, GIF, 'new.gif');
    expect(second.statusCode, second.body).toBe(201);
    const { url } = uploadResponseSchema.parse(second.json());
    expect(url).toMatch(/\.gif$/);
    const patched = await a.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/user/',
      headers: bearer(token),
      payload: { avatar: url },
    });
    expect(patched.json().avatar).toBe(url);
    const served = await a.app.inject({ method: 'GET', url });
    expect(served.headers['content-type']).toBe('image/gif');
    expect(served.rawPayload.equals(GIF)).toBe(true);

    // The old file goes through B's storage (as pruning would); A no longer finds it either.
    await fileStorageFor(b.app.ctx.config).delete(keyOf(first));
    expect(await s3.stored(`uploads/${keyOf(first)}`)).toBeNull();
    expect((await a.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await b.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });

  it('answers 404 for a key the bucket does not hold', async () => {
    const res = await b.app.inject({
      method: 'GET',
      url: '/uploads/0b8f1c2e-4a5b-4c6d-8e9f-0a1b2c3d4e5f.png',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
  });

  it('answers 503 with the error shape, stores no row and logs no secret when the store refuses the secret', async () => {
    const wrongSecret = 'not-the-secret-4711';
    const lines: string[] = [];
    const c = await startAnotherInstance(
      a,
      { STORAGE_URL: s3.storageUrl({ secret: wrongSecret }), LOG_LEVEL: 'info' },
      { logStream: { write: (line) => lines.push(line) } },
    );
    try {
      const before = await rowCount();
      const res = await upload(c.app, PNG);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({
        code: ErrorCode.SERVICE_UNAVAILABLE,
        message: expect.any(String),
      });
      expect(res.body).not.toMatch(/S3|Signature|S3RVER/i);
      expect(await rowCount()).toBe(before);

      // Reading is refused the same way (the file exists: A stored it).
      const stored = uploadResponseSchema.parse((await upload(a.app, PNG)).json()).url;
      const read = await c.app.inject({ method: 'GET', url: stored });
      expect(read.statusCode).toBe(503);

      // The cause is in the log for the operator; neither secret is.
      const log = lines.join('\n');
      expect(log).toContain('SignatureDoesNotMatch');
      expect(log).not.toContain(wrongSecret);
      expect(log).not.toContain(`:${S3_SECRET}@`);
    } finally {
      await c.close();
    }
  });

  it('answers 503 when the store cannot be reached', async () => {
    // A port nothing listens on: the connection is refused.
    const down = s3.storageUrl().replace(/127\.0\.0\.1:\d+/, '127.0.0.1:9');
    const c = await startAnotherInstance(a, { STORAGE_URL: down });
    try {
      const before = await rowCount();
      const res = await upload(c.app, PNG);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
      expect(await rowCount()).toBe(before);
    } finally {
      await c.close();
    }
  });
});
