// engine-parity: twenty or more requests at once
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import {
  createTestApp,
  registerActiveUser,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.ts';
import { expectAlikeInTime } from '../../../test/support/timing.ts';
import { extractCode } from '../../../test/support/mailbox.ts';

/** The claims of a token, read as anyone can: the base64url payload, no key needed. */
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * POST /v1/rest-auth/password/reset/ must not tell whether an account exists: not by its status
 * or body, not by what its token carries, not by how long it takes, and not by a limit that
 * only accounts reach.
 */
describe('password reset requests reveal nothing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // Every request from an address of its own: the per-address limit (10) is tested elsewhere.
  let n = 0;
  const requestReset = (email: string) => {
    n++;
    return t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/password/reset/',
      payload: { email },
      remoteAddress: `10.7.${Math.floor(n / 250)}.${(n % 250) + 1}`,
    });
  };
  const identity = (token: string, code: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/password/reset/identity/',
      payload: { token, code },
      remoteAddress: '10.7.255.1',
    });
  const resetMails = async (email: string) => {
    await t.ctx.outbox.drain();
    return t.mailbox.to(email).filter((m) => /password reset/i.test(m.subject));
  };

  it('gives tokens of the same claims, none of them stable, for a known and an unknown e-mail', async () => {
    const { email } = await registerActiveUser(t);
    const unknown = uniqueEmail('nobody');
    const answers = [
      await requestReset(email),
      await requestReset(email),
      await requestReset(unknown),
      await requestReset(unknown),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['detail', 'token']);
    }
    const tokens = answers.map((res) => res.json().token as string);
    const claims = tokens.map(claimsOf);
    const keys = Object.keys(claims[0]!).sort();
    for (const c of claims) expect(Object.keys(c).sort()).toEqual(keys);
    expect(new Set(tokens.map((tk) => tk.length)).size).toBe(1);

    // Besides the audience and the times, no claim repeats across two requests for one account,
    // and nothing in a token is the account's id.
    const [first, second] = claims as [Record<string, unknown>, Record<string, unknown>];
    for (const key of keys.filter((k) => !['aud', 'iat', 'exp'].includes(k))) {
      expect(second[key], key).not.toEqual(first[key]);
    }
    const me = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email, password: 'Correct horse battery 42' },
    });
    const userId = claimsOf(me.json().token).sub;
    for (const c of claims) expect(Object.values(c)).not.toContain(userId);

    // The newest token still works with its code, found from the code row alone.
    const code = extractCode((await resetMails(email)).at(-1)!.text);
    expect((await identity(tokens[1]!, code)).statusCode).toBe(200);
  });

  it('meets the same answers at the code step for a known and an unknown e-mail', async () => {
    const { email } = await registerActiveUser(t);
    const code = async (token: string) => {
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const res = await identity(token, '000000');
        answers.push(`${res.statusCode} ${res.json().code}`);
      }
      return answers;
    };
    const known = await code((await requestReset(email)).json().token);
    const unknown = await code((await requestReset(uniqueEmail('nobody'))).json().token);
    // (A mailed code of 000000 would make the known series differ; one in a million.)
    expect(unknown).toEqual(known);
    expect(known).toEqual([
      ...Array(4).fill(`400 ${ErrorCode.INVALID_CODE}`),
      ...Array(2).fill(`429 ${ErrorCode.TOO_MANY_ATTEMPTS}`),
    ]);
  });

  it('takes as long for an unknown e-mail as for a known one', async () => {
    // Five accounts, one request each per round and the rounds an hour apart, so every known
    // request mails a code.
    const known: string[] = [];
    for (let i = 0; i < 5; i++) known.push((await registerActiveUser(t)).email);
    const time = async (email: string) => {
      const start = performance.now();
      const res = await requestReset(email);
      const ms = performance.now() - start;
      expect(res.statusCode).toBe(200);
      return ms;
    };
    for (let i = 0; i < 5; i++) await time(uniqueEmail('warm-up'));
    // Pairs of requests, one of each kind, in turn first: the difference within a pair is
    // immune to the load of the (shared) machine drifting over the run.
    const measure = async () => {
      const differences: number[] = [];
      const unknownMs: number[] = [];
      for (let round = 0; round < 8; round++) {
        t.clock.advance(61 * 60_000);
        for (const [i, email] of known.entries()) {
          const nobody = uniqueEmail('nobody');
          let k: number, u: number;
          if ((round + i) % 2) {
            k = await time(email);
            u = await time(nobody);
          } else {
            u = await time(nobody);
            k = await time(email);
          }
          differences.push(k - u);
          unknownMs.push(u);
        }
      }
      return { difference: median(differences), typical: median(unknownMs) };
    };
    // Generous against a noisy machine, yet a path that skips the writes of the other (about
    // a third of the request's time before) shows.
    await expectAlikeInTime(measure, (typical) => 0.2 * typical + 0.2, 'known and unknown e-mails');
  });

  describe('at most 5 reset mails per account per hour', () => {
    const expectSameAnswers = (answers: { statusCode: number; json: () => unknown }[]) => {
      for (const res of answers) {
        expect(res.statusCode).toBe(200);
        const body = res.json() as { detail: string; token: string };
        expect(Object.keys(body).sort()).toEqual(['detail', 'token']);
        expect(Object.keys(claimsOf(body.token)).sort()).toEqual([
          'aud',
          'exp',
          'iat',
          'jti',
          'sub',
        ]);
      }
      expect(new Set(answers.map((r) => (r.json() as { detail: string }).detail)).size).toBe(1);
    };

    it('mails 5 of 30 requests in a row, answering all alike; again after an hour', async () => {
      t.clock.advance(61 * 60_000);
      const { email } = await registerActiveUser(t);
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push(await requestReset(email));
      expectSameAnswers(answers);
      expect(await resetMails(email)).toHaveLength(5);

      // The unanswered requests' tokens lead nowhere, like an unknown e-mail's ...
      const lastCode = extractCode((await resetMails(email)).at(-1)!.text);
      const refused = await identity(answers[29]!.json().token, lastCode);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe(ErrorCode.INVALID_CODE);
      // ... and the fifth, mailed code is still the live one.
      expect((await identity(answers[4]!.json().token, lastCode)).statusCode).toBe(200);

      // The hour rolls: one more mail 61 minutes after the first five.
      t.clock.advance(61 * 60_000);
      expect((await requestReset(email)).statusCode).toBe(200);
      expect(await resetMails(email)).toHaveLength(6);
    });

    it('mails 5 of 50 requests sent at once', async () => {
      t.clock.advance(61 * 60_000);
      const { email } = await registerActiveUser(t);
      const answers = await Promise.all(Array.from({ length: 50 }, () => requestReset(email)));
      expectSameAnswers(answers);
      expect(await resetMails(email)).toHaveLength(5);
    });
  });
});
