import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, uploadResponseSchema } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  type TestApp,
} from '../../../test/support/app.ts';
import { uploads } from '../../db/schema/index.ts';

// A real 1×1 PNG, and the signatures of the other accepted types followed by some bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 2)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(64, 3),
]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
const MB = 1024 * 1024;

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

const BOUNDARY = '----portolan-test-boundary-7MA4YWxkTrZu0gW';

function multipart(parts: Part[]) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const head = [`--${BOUNDARY}`, `Content-Disposition: ${disposition}`];
    if (p.contentType) head.push(`Content-Type: ${p.contentType}`);
    chunks.push(Buffer.from(`${head.join('\r\n')}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const file = (data: Buffer, filename = 'picture.png', contentType = 'image/png'): Part => ({
  name: 'file',
  filename,
  contentType,
  data,
});

// A built web app, so the test shows /uploads/... never falls back to the SPA's index.html.
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-web-'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');

describe('uploads', () => {
  let t: TestApp;
  let token: string;
  let uploadDir: string;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST: webDist });
    const { email, password } = await registerActiveUser(t);
    token = await signIn(t, email, password);
    uploadDir = path.join(t.ctx.config.dataDir, 'uploads');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const upload = (body: Buffer, headers: Record<string, string> = bearer(token)) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/upload/',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
      payload: body,
    });
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const rowCount = async () => (await t.ctx.db.select().from(uploads)).length;
  const storedFiles = () => (fs.existsSync(uploadDir) ? fs.readdirSync(uploadDir) : []);

  /** Runs a refused upload and checks that nothing was stored by it. */
  async function refused(body: Buffer, status: number, code: string, field?: string) {
    const rows = await rowCount();
    const files = storedFiles().length;
    const res = await upload(body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().code).toBe(code);
    if (field) expect(res.json().details).toEqual([{ field, message: expect.any(String) }]);
    expect(await rowCount()).toBe(rows);
    expect(storedFiles()).toHaveLength(files);
    return res;
  }

  it('stores a PNG and serves it back with its type, nosniff and a long cache', async () => {
    const res = await upload(multipart([file(PNG)]));
    expect(res.statusCode, res.body).toBe(201);
    const { url } = uploadResponseSchema.parse(res.json());
    expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);

    const served = await get(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const key = url.slice('/uploads/'.length);
    const [row] = (await t.ctx.db.select().from(uploads)).filter((r) => r.storage_key === key);
    expect(row).toMatchObject({ content_type: 'image/png', size: PNG.length });
    expect(fs.readFileSync(path.join(uploadDir, key)).equals(PNG)).toBe(true);
  });

  it('trusts the bytes, not the name or the declared type', async () => {
    for (const [name, type] of [
      ['notes.txt', 'text/plain'],
      ['noextension', 'application/octet-stream'],
      ['image.svg', 'image/svg+xml'],
    ] as const) {
      const res = await upload(multipart([file(PNG, name, type)]));
      expect(res.statusCode, name).toBe(201);
      const served = await get(res.json().url);
      expect(served.headers['content-type']).toBe('image/png');
    }
  });

  it('accepts JPEG, GIF and WebP with their own types', async () => {
    for (const [bytes, type, ext] of [
      [JPEG, 'image/jpeg', 'jpg'],
      [GIF, 'image/gif', 'gif'],
      [WEBP, 'image/webp', 'webp'],
    ] as const) {
      const res = await upload(multipart([file(bytes, `x.${ext}`, 'application/octet-stream')]));
      expect(res.statusCode, type).toBe(201);
      expect(res.json().url).toMatch(new RegExp(`\\.${ext}$`));
      const served = await get(res.json().url);
      expect(served.headers['content-type']).toBe(type);
      expect(served.rawPayload.equals(bytes)).toBe(true);
    }
  });

  it('refuses HTML, SVG and other non-images, whatever their name says', async () => {
    await refused(
      multipart([file(HTML, 'evil.png', 'image/png')]),
      400,
      'VALIDATION_ERROR',
      'file',
    );
    await refused(multipart([file(SVG, 'logo.png', 'image/png')]), 400, 'VALIDATION_ERROR', 'file');
    await refused(
      multipart([file(SVG, 'logo.svg', 'image/svg+xml')]),
      400,
      'VALIDATION_ERROR',
      'file',
    );
    await refused(
      multipart([file(Buffer.from('%PDF-1.7 ...'), 'doc.jpg', 'image/jpeg')]),
      400,
      'VALIDATION_ERROR',
      'file',
    );
    // The PNG signature cut short is not a PNG.
    await refused(multipart([file(PNG.subarray(0, 5))]), 400, 'VALIDATION_ERROR', 'file');
    await refused(multipart([file(Buffer.alloc(0))]), 400, 'VALIDATION_ERROR', 'file');
  });

  it('refuses a file over 5 MB with 413 and stores nothing', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(6 * MB)]);
    await refused(multipart([file(big)]), 413, ErrorCode.PAYLOAD_TOO_LARGE, 'file');
  });

  it('accepts a file of exactly 5 MB', async () => {
    const exact = Buffer.concat([PNG, Buffer.alloc(5 * MB - PNG.length)]);
    const res = await upload(multipart([file(exact)]));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a form without the file, with other fields or with two files', async () => {
    await refused(multipart([]), 400, 'VALIDATION_ERROR', 'file');
    await refused(
      multipart([{ name: 'file', data: 'just text' }]),
      400,
      'VALIDATION_ERROR',
      'file',
    );
    await refused(multipart([{ ...file(PNG), name: 'image' }]), 400, 'VALIDATION_ERROR', 'image');
    await refused(
      multipart([file(PNG), { name: 'is_admin', data: 'true' }]),
      400,
      'VALIDATION_ERROR',
      'is_admin',
    );
    await refused(multipart([file(PNG), file(PNG, 'b.png')]), 400, 'VALIDATION_ERROR', 'file');
  });

  it('answers a cut-off or malformed form with 400, never 500', async () => {
    const whole = multipart([file(PNG)]);
    await refused(whole.subarray(0, whole.length - 30), 400, 'VALIDATION_ERROR', 'file');
    await refused(Buffer.from('this is not multipart at all'), 400, 'VALIDATION_ERROR', 'file');
  });

  it('refuses a body that is not multipart', async () => {
    const rows = await rowCount();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/upload/',
      headers: bearer(token),
      payload: { file: PNG.toString('base64') },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    expect(await rowCount()).toBe(rows);
  });

  it('answers 401 without a valid token and stores nothing', async () => {
    const body = multipart([file(PNG)]);
    for (const headers of [{}, bearer('garbage'), { authorization: 'Basic dXNlcjpwYXNz' }]) {
      const rows = await rowCount();
      const res = await upload(body, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
      expect(await rowCount()).toBe(rows);
    }
  });

  it('answers unknown and malformed keys with a JSON 404, never the SPA or another file', async () => {
    for (const url of [
      `/uploads/${crypto.randomUUID()}.png`,
      '/uploads/..%2F..%2Fsecrets%2Fjwt-secret',
      '/uploads/..%2Fpglite',
      '/uploads/%2e%2e%2fserver.lock',
      '/uploads/index.html',
      '/uploads/',
      '/uploads',
      '/uploads/a/b.png',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
      expect(res.json().code, url).toBe(ErrorCode.NOT_FOUND);
    }
    // The sidecar with a stored file's type is not served either.
    const { url } = (await upload(multipart([file(PNG)]))).json();
    expect((await get(`${url}.meta.json`)).statusCode).toBe(404);
  });
});

describe('avatar from an upload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const uploadAs = async (token: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/upload/',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...bearer(token) },
      payload: multipart([file(PNG)]),
    });
    return uploadResponseSchema.parse(res.json()).url;
  };
  const setAvatar = (token: string, avatar: string | null) =>
    t.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/user/',
      headers: bearer(token),
      payload: { avatar },
    });

  it('accepts only the caller’s own upload as avatar, and null to remove it', async () => {
    const alice = await registerActiveUser(t);
    const bob = await registerActiveUser(t);
    const aliceToken = await signIn(t, alice.email, alice.password);
    const bobToken = await signIn(t, bob.email, bob.password);
    const aliceUrl = await uploadAs(aliceToken);

    const own = await setAvatar(aliceToken, aliceUrl);
    expect(own.statusCode).toBe(200);
    expect(own.json().avatar).toBe(aliceUrl);

    for (const foreign of [
      aliceUrl,
      'https://evil.example.com/x.png',
      '/uploads/../secrets/jwt-secret',
    ]) {
      const res = await setAvatar(bobToken, foreign);
      expect(res.statusCode, foreign).toBe(400);
      expect(res.json().details).toEqual([{ field: 'avatar', message: expect.any(String) }]);
    }

    const cleared = await setAvatar(aliceToken, null);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().avatar).toBeNull();
  });
});
