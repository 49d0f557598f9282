import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import {
  createTestApp,
  registerActiveUser,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.ts';
import { createTestDatabase } from '../../../test/support/database.ts';
import type { Database } from '../../db/client.ts';
import { loginFailures } from '../../db/schema/index.ts';

const rateLimited = { code: ErrorCode.RATE_LIMITED, message: expect.any(String) };

describe('rate limits', () => {
  let t: TestApp;
  let database: Database;
  beforeAll(async () => {
    // 200 sign-ins at once queue for the pool's 5 connections on PostgreSQL: on a loaded machine
    // the server's 2-s wait for one ran out and a few answered 503, which is not what is tested.
    database = await createTestDatabase({ connectTimeoutMs: 20_000 });
    t = await createTestApp({}, { database });
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  const inject = (
    method: 'GET' | 'POST',
    url: string,
    ip: string,
    payload?: object,
    headers?: Record<string, string>,
  ) =>
    t.app.inject({
      method,
      url,
      remoteAddress: ip,
      ...(payload && { payload }),
      ...(headers && { headers }),
    });

  describe('failed sign-ins for one account', () => {
    it('answers the 11th attempt within 15 minutes with 429, even with the right password', async () => {
      const { email } = await registerActiveUser(t);
      // From several addresses: the lockout is per account, not per address.
      for (let i = 0; i < 10; i++) {
        const res = await inject('POST', '/v1/rest-auth/app/login/', `10.3.0.${i + 1}`, {
          email,
          password: `wrong password ${i}`,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe(ErrorCode.INVALID_CREDENTIALS);
      }
      const right = await inject('POST', '/v1/rest-auth/app/login/', '10.3.0.20', {
        email,
        password: STRONG_PASSWORD,
      });
      expect(right.statusCode).toBe(429);
      expect(right.json()).toEqual(rateLimited);
      // The same account on the other sign-in route, in another case, is locked too.
      const other = await inject('POST', '/v1/rest-auth/login/', '10.3.0.21', {
        username: email.toUpperCase(),
        password: STRONG_PASSWORD,
      });
      expect(other.statusCode).toBe(429);

      // Another account is not affected.
      const bystander = await registerActiveUser(t);
      const ok = await inject('POST', '/v1/rest-auth/app/login/', '10.3.0.20', {
        email: bystander.email,
        password: STRONG_PASSWORD,
      });
      expect(ok.statusCode).toBe(200);

      // After the 15-minute window the account signs in again.
      t.clock.advance(16 * 60_000);
      const later = await inject('POST', '/v1/rest-auth/app/login/', '10.3.0.22', {
        email,
        password: STRONG_PASSWORD,
      });
      expect(later.statusCode).toBe(200);
      expect(later.json()).toEqual({ token: expect.any(String) });
    });

    // Each guess from an address of its own, so the per-address limit (50) never answers first.
    let block = 0;
    const guessAll = (email: string, n: number) => {
      block++;
      return Promise.all(
        Array.from({ length: n }, (_, i) =>
          inject('POST', '/v1/rest-auth/app/login/', `10.5.${block}.${i + 1}`, {
            email,
            password: `wrong password ${i}`,
          }),
        ),
      );
    };
    const tally = (answers: Awaited<ReturnType<typeof guessAll>>) => ({
      invalid: answers.filter(
        (r) => r.statusCode === 400 && r.json().code === ErrorCode.INVALID_CREDENTIALS,
      ).length,
      locked: answers.filter(
        (r) => r.statusCode === 429 && r.json().code === ErrorCode.RATE_LIMITED,
      ).length,
    });

    for (const n of [50, 200]) {
      it(`checks at most 10 of ${n} guesses sent at once, then refuses even the right password`, async () => {
        const { email } = await registerActiveUser(t);
        const answers = await guessAll(email, n);
        expect(tally(answers)).toEqual({ invalid: 10, locked: n - 10 });
        const failures = await t.ctx.db
          .select()
          .from(loginFailures)
          .where(eq(loginFailures.email, email.toLowerCase()));
        expect(failures).toHaveLength(10);

        const right = await inject('POST', '/v1/rest-auth/app/login/', '10.5.250.1', {
          email,
          password: STRONG_PASSWORD,
        });
        expect(right.statusCode).toBe(429);
        expect(right.json()).toEqual(rateLimited);

        t.clock.advance(15 * 60_000 + 1_000);
        const later = await inject('POST', '/v1/rest-auth/app/login/', '10.5.250.2', {
          email,
          password: STRONG_PASSWORD,
        });
        expect(later.statusCode).toBe(200);
      });
    }

    it('answers parallel guesses for an unknown e-mail exactly like for an account', async () => {
      const answers = await guessAll(uniqueEmail('nobody'), 50);
      expect(tally(answers)).toEqual({ invalid: 10, locked: 40 });
      const bodies = new Set(answers.map((r) => r.body));
      expect(bodies.size).toBe(2);
    });

    it('does not count a right password as a failure', async () => {
      const { email } = await registerActiveUser(t);
      for (let i = 0; i < 9; i++) {
        await inject('POST', '/v1/rest-auth/app/login/', '10.3.2.1', {
          email,
          password: 'nope nope',
        });
      }
      for (let i = 0; i < 3; i++) {
        const ok = await inject('POST', '/v1/rest-auth/app/login/', '10.3.2.2', {
          email,
          password: STRONG_PASSWORD,
        });
        expect(ok.statusCode).toBe(200);
      }
      const tenth = await inject('POST', '/v1/rest-auth/app/login/', '10.3.2.1', {
        email,
        password: 'nope nope',
      });
      expect(tenth.statusCode).toBe(400);
      const locked = await inject('POST', '/v1/rest-auth/app/login/', '10.3.2.2', {
        email,
        password: STRONG_PASSWORD,
      });
      expect(locked.statusCode).toBe(429);
    });

    it('does not lock an account after 9 failures', async () => {
      const { email } = await registerActiveUser(t);
      for (let i = 0; i < 9; i++) {
        await inject('POST', '/v1/rest-auth/app/login/', '10.3.1.1', {
          email,
          password: 'nope nope',
        });
      }
      const res = await inject('POST', '/v1/rest-auth/app/login/', '10.3.1.1', {
        email,
        password: STRONG_PASSWORD,
      });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('per-address limits', () => {
    const registration = (email: string) => ({
      email,
      password1: STRONG_PASSWORD,
      password2: STRONG_PASSWORD,
      first_name: 'Rate',
      last_name: 'Limited',
    });

    it('allows 20 registrations from one address in 15 minutes, then answers 429', async () => {
      const ip = '10.4.0.1';
      for (let i = 0; i < 20; i++) {
        const res = await inject(
          'POST',
          '/v1/rest-auth/registration/',
          ip,
          registration(uniqueEmail()),
        );
        expect(res.statusCode).toBe(201);
      }
      const email = uniqueEmail('limited');
      const res = await inject('POST', '/v1/rest-auth/registration/', ip, registration(email));
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(rateLimited);
      expect(res.headers['retry-after']).toBeDefined();
      // Refused before anything happened: the account was not created, another address may.
      const elsewhere = await inject(
        'POST',
        '/v1/rest-auth/registration/',
        '10.4.0.2',
        registration(email),
      );
      expect(elsewhere.statusCode).toBe(201);
    });

    it('allows 10 password-reset requests from one address, then answers 429 and mails nothing', async () => {
      const ip = '10.4.1.1';
      const { email } = await registerActiveUser(t);
      await t.ctx.outbox.drain();
      const before = t.mailbox.to(email).length;
      for (let i = 0; i < 10; i++) {
        const res = await inject('POST', '/v1/rest-auth/password/reset/', ip, {
          email: uniqueEmail(),
        });
        expect(res.statusCode).toBe(200);
      }
      const res = await inject('POST', '/v1/rest-auth/password/reset/', ip, { email });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(rateLimited);
      await t.ctx.outbox.drain();
      expect(t.mailbox.to(email)).toHaveLength(before);
    });

    it('limits guesses at reset codes per address', async () => {
      const ip = '10.4.2.1';
      const { token } = (
        await inject('POST', '/v1/rest-auth/password/reset/', ip, { email: uniqueEmail() })
      ).json();
      for (let i = 0; i < 30; i++) {
        const res = await inject('POST', '/v1/rest-auth/password/reset/identity/', ip, {
          code: '123456',
          token,
        });
        // The code's own limit answers from the 5th wrong code on; the address's limit not yet.
        expect(res.json().code).toBe(i < 4 ? ErrorCode.INVALID_CODE : ErrorCode.TOO_MANY_ATTEMPTS);
      }
      const res = await inject('POST', '/v1/rest-auth/password/reset/identity/', ip, {
        code: '123456',
        token,
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(rateLimited);
    });

    it('allows 50 sign-ins from one address in 15 minutes, then answers 429', async () => {
      const ip = '10.4.3.1';
      for (let i = 0; i < 50; i++) {
        // Each attempt for a different (unknown) account, so the per-account lockout never applies.
        const res = await inject('POST', '/v1/rest-auth/app/login/', ip, {
          email: uniqueEmail('guess'),
          password: 'guessing 123',
        });
        expect(res.statusCode).toBe(400);
      }
      const res = await inject('POST', '/v1/rest-auth/app/login/', ip, {
        email: uniqueEmail('guess'),
        password: 'guessing 123',
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(rateLimited);
    });

    it('allows 10 activation-code resends from one address, then answers 429', async () => {
      const ip = '10.4.4.1';
      const reg = await inject(
        'POST',
        '/v1/rest-auth/registration/',
        ip,
        registration(uniqueEmail()),
      );
      const headers = { authorization: `Bearer ${reg.json().token}` };
      for (let i = 0; i < 10; i++) {
        const res = await inject(
          'GET',
          '/v1/rest-auth/registration/activation/resend-code/',
          ip,
          undefined,
          headers,
        );
        expect(res.statusCode).toBe(200);
      }
      const res = await inject(
        'GET',
        '/v1/rest-auth/registration/activation/resend-code/',
        ip,
        undefined,
        headers,
      );
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(rateLimited);
    });
  });
});
