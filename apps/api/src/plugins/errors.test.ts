import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  type TestApp,
} from '../../test/support/app.ts';
import { users } from '../db/schema/index.ts';

/** Bad requests get the documented 4xx body and change nothing; a crash hides its internals. */
describe('request errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        beforeReady(app) {
          app.get(
            '/v1/test-crash',
            { config: { access: { public: 'a probe of the error handler' } } },
            async () => {
              throw new Error('secret internal detail: password=hunter2');
            },
          );
        },
      },
    );
  });
  afterAll(() => t.close());

  const register = (payload: string, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/registration/',
      headers: { 'content-type': contentType },
      payload,
    });
  const valid = {
    email: 'someone@example.com',
    password1: 'Correct horse battery 42',
    password2: 'Correct horse battery 42',
    first_name: 'Some',
    last_name: 'One',
  };
  const userCount = async () => (await t.ctx.db.select().from(users)).length;

  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const res = await register('{"email": "a@b.c",');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: ErrorCode.INVALID_JSON, message: expect.any(String) });
  });

  it('names a missing field', async () => {
    const { first_name: _omit, ...rest } = valid;
    const res = await register(JSON.stringify(rest));
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe(ErrorCode.VALIDATION_ERROR);
    expect(body.details).toEqual([{ field: 'first_name', message: expect.any(String) }]);
  });

  it('rejects an unknown field by name', async () => {
    const res = await register(JSON.stringify({ ...valid, is_admin: true }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'is_admin', message: 'Unknown field.' }]);
  });

  it('gives one detail per bad field', async () => {
    const res = await register(JSON.stringify({ ...valid, email: 'not-an-email', last_name: '' }));
    expect(res.statusCode).toBe(400);
    const fields = (res.json().details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(['email', 'last_name']);
  });

  it('answers a 2 MB body with 413', async () => {
    const res = await register(
      JSON.stringify({ ...valid, first_name: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
  });

  it('answers a body that does not match its Content-Length with 400 BAD_REQUEST', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/registration/',
      headers: { 'content-type': 'application/json', 'content-length': '10' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: ErrorCode.BAD_REQUEST, message: expect.any(String) });
  });

  it('answers text/plain on a JSON route with 415', async () => {
    const res = await register(JSON.stringify(valid), 'text/plain');
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
  });

  it('refuses a NUL in a text field with 400 naming the field (PostgreSQL cannot store it)', async () => {
    for (const last_name of ['\u0000', 'One\u0000', 'Line\nbreak', 'Lone \ud800']) {
      const res = await register(JSON.stringify({ ...valid, last_name }));
      expect(res.statusCode, JSON.stringify(last_name)).toBe(400);
      expect(res.json()).toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
        details: [{ field: 'last_name', message: expect.stringMatching(/control characters/) }],
      });
    }
    const res = await register(JSON.stringify({ ...valid, password1: 'Correct\u0000horse 42' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: 'password1', message: expect.stringMatching(/NUL/) },
    ]);
  });

  it('changes nothing on any of those', async () => {
    expect(await userCount()).toBe(0);
  });

  it('refuses a NUL in a field of the signed-in user with 400, and keeps the old value', async () => {
    const { email, password } = await registerActiveUser(t, { first_name: 'Kept' });
    const token = await signIn(t, email, password);
    for (const first_name of ['\u0000', 'Ann\u0000Lee']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/v1/rest-auth/user/',
        headers: bearer(token),
        payload: { first_name },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
        details: [{ field: 'first_name', message: expect.any(String) }],
      });
    }
    const me = await t.app.inject({
      method: 'GET',
      url: '/v1/rest-auth/user/',
      headers: bearer(token),
    });
    expect(me.json().first_name).toBe('Kept');
  });

  it('answers an unknown /v1/ route with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/no-such-thing/' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
  });

  it('answers a crash with a 500 that hides the internals', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test-crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: ErrorCode.INTERNAL_ERROR, message: expect.any(String) });
    expect(res.body).not.toMatch(/hunter2|secret|stack/);
  });
});
