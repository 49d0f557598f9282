import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../test/support/app.ts';
import { AppError } from '../lib/errors.ts';
import { COMPRESS_MIN_BYTES, negotiateEncoding } from './compression.ts';
import { decoded, injectWithEncoding, varies } from './test-encoding.ts';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['deflate', null],
    ['zstd', null],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['BR;Q=1, GZIP', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['gzip;q=0, br;q=0', null],
    ['gzip;q=0', null],
    ['*', 'gzip'],
    ['*;q=0', null],
    ['br, *;q=0', 'br'],
    ['gzip;q=bogus', null],
  ] as const)('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compressed answers', () => {
  let t: TestApp;
  const details = Array.from({ length: 60 }, (_, i) => ({
    field: `field_${i}`,
    message: `Field ${i} is not valid.`,
  }));
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        beforeReady(app) {
          const config = { access: { public: 'a probe of the compression' } };
          app.get('/v1/test-big-error', { config }, async () => {
            throw new AppError(ErrorCode.VALIDATION_ERROR, 'Many fields.', details);
          });
          app.get('/v1/test-no-transform', { config }, async (_request, reply) =>
            reply.header('cache-control', 'no-transform').send({ text: 'x'.repeat(4096) }),
          );
        },
      },
    );
  });
  afterAll(() => t.close());

  const get = injectWithEncoding(() => t);

  it('compresses a large JSON answer (/docs/json) with br, else gzip, else not', async () => {
    const plain = await get('/docs/json');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain.headers)).toBe(true);
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    const document = plain.body;

    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const res = await get('/docs/json', accept);
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(varies(res.headers), accept).toBe(true);
      expect(Number(res.headers['content-length']), accept).toBe(res.rawPayload.length);
      expect(res.rawPayload.length, accept).toBeLessThan(plain.rawPayload.length / 4);
      expect(decoded(res), accept).toBe(document);
    }
    for (const accept of ['identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await get('/docs/json', accept);
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(res.body, accept).toBe(document);
    }
  });

  it('answers HEAD with the headers of the compressed GET', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const head = await get('/docs/json', accept, 'HEAD');
      const full = await get('/docs/json', accept);
      expect(head.statusCode, accept).toBe(200);
      expect(head.rawPayload.length, accept).toBe(0);
      for (const name of ['content-encoding', 'content-type', 'content-length', 'vary']) {
        expect(head.headers[name], `${accept} ${name}`).toBe(full.headers[name]);
      }
    }
  });

  it('sends small answers as they are, without Vary', async () => {
    const res = await get('/v1/health', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(varies(res.headers)).toBe(false);
    expect(res.json()).toMatchObject({ status: 'ok' });
  });

  it('keeps the error shape: a large error is compressed, a small one is not', async () => {
    const big = await get('/v1/test-big-error', 'gzip, deflate, br');
    expect(big.statusCode).toBe(400);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers['content-type']).toMatch(/^application\/json/);
    expect(big.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(decoded(big))).toEqual({
      code: ErrorCode.VALIDATION_ERROR,
      message: 'Many fields.',
      details,
    });

    const small = await get('/v1/no-such-route', 'gzip, deflate, br');
    expect(small.statusCode).toBe(404);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ code: ErrorCode.NOT_FOUND, message: expect.any(String) });
  });

  it('leaves an answer marked no-transform alone', async () => {
    const res = await get('/v1/test-no-transform', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ text: 'x'.repeat(4096) });
  });
});
