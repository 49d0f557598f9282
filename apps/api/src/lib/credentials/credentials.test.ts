// engine-parity: twenty or more requests at once
import {
  CREDENTIAL_CHECK_UNAVAILABLE_MESSAGE,
  CREDENTIAL_MESSAGE_MAX_LENGTH,
} from '@portolan/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCredentialFake, type CredentialFake } from '../../../test/support/credential-fake.ts';
import { ManualClock } from '../clock.ts';
import {
  cleanMessage,
  createCredentialChecker,
  createHttpCredentialChecker,
  createStaticCredentialChecker,
  UNAVAILABLE,
  VALID,
} from './index.ts';

const workspace = (id: string) => ({ id, organization_id: 'org-1', name: `Workspace ${id}` });

/** The checkers against a real HTTP server on a loopback port (test/support/credential-fake.ts). */
describe('the HTTP credential checker', () => {
  let fake: CredentialFake;
  let warnings: { details: object; message: string }[];
  const log = {
    warn: (details: object, message: string) => void warnings.push({ details, message }),
  };

  beforeAll(async () => {
    fake = await startCredentialFake();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    warnings = [];
  });

  const checker = (options: Parameters<typeof createHttpCredentialChecker>[1] = {}) =>
    createHttpCredentialChecker(fake.checkUrl, { timeoutMs: 500, log, ...options });

  it('asks GET <url>?client_id=<id>, keeping the query the URL already has', async () => {
    const c = createHttpCredentialChecker(`${fake.checkUrl}?seller=eu&client_id=wrong`, { log });
    expect(await c.check(workspace('q-1'))).toEqual(VALID);
    const query = fake.queries.at(-1)!;
    expect(query.get('client_id')).toBe('q-1');
    expect(query.get('seller')).toBe('eu');
    expect(query.getAll('client_id')).toEqual(['q-1']);
  });

  it('passes on a valid answer and an invalid one with its message', async () => {
    fake.set('v-1', { is_valid: true, message: null });
    fake.set('i-1', { is_valid: false, message: 'The seller token has expired.' });
    const c = checker();
    expect(await c.check(workspace('v-1'))).toEqual({ is_valid: true, message: null });
    expect(await c.check(workspace('i-1'))).toEqual({
      is_valid: false,
      message: 'The seller token has expired.',
    });
    expect(warnings).toEqual([]);
  });

  it('keeps markup as text, and makes the message one clean line of bounded length', async () => {
    fake.set('m-1', { is_valid: false, message: '  <b>Renew</b>\n\tthe\u0000token  ' });
    fake.set('m-2', { is_valid: false, message: 'é'.repeat(2000) });
    fake.set('m-3', { is_valid: false, message: ' \n ' });
    const c = checker();
    expect((await c.check(workspace('m-1'))).message).toBe('<b>Renew</b> the token');
    const long = (await c.check(workspace('m-2'))).message!;
    expect(long).toHaveLength(CREDENTIAL_MESSAGE_MAX_LENGTH);
    expect(long.endsWith('…')).toBe(true);
    expect(await c.check(workspace('m-3'))).toEqual({ is_valid: false, message: null });
  });

  it.each([
    ['garbage', 'answer is not JSON'],
    ['wrong-shape', 'answer is not {is_valid, message}'],
    ['error', 'status 500'],
    ['huge', 'bytes'],
    ['hang', 'timed out'],
  ] as const)('answers UNAVAILABLE, never invalid, for a %s answer', async (behaviour, reason) => {
    const id = `b-${behaviour}`;
    fake.set(id, { behaviour });
    const started = Date.now();
    const status = await checker().check(workspace(id));
    expect(status).toEqual({ is_valid: true, message: CREDENTIAL_CHECK_UNAVAILABLE_MESSAGE });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toBe('credential check unavailable');
    expect(warnings[0]!.details).toMatchObject({ clientId: id });
    expect(String((warnings[0]!.details as { reason: string }).reason)).toContain(reason);
  });

  it('answers UNAVAILABLE when nothing listens at the URL', async () => {
    const closed = await startCredentialFake();
    await closed.close();
    const c = createHttpCredentialChecker(closed.checkUrl, { timeoutMs: 500, log });
    expect(await c.check(workspace('gone'))).toEqual(UNAVAILABLE);
    expect(warnings).toHaveLength(1);
  });

  it('keeps an answer per workspace for the TTL, then asks again', async () => {
    const clock = new ManualClock();
    const c = checker({ clock, ttlMs: 60_000 });
    fake.set('c-1', { is_valid: false, message: 'Expired.' });
    const before = fake.checks.length;
    expect((await c.check(workspace('c-1'))).is_valid).toBe(false);
    fake.set('c-1', { is_valid: true });
    clock.advance(59_000);
    expect((await c.check(workspace('c-1'))).is_valid).toBe(false);
    await c.check(workspace('c-2'));
    expect(fake.checks.slice(before)).toEqual(['c-1', 'c-2']);
    clock.advance(2_000);
    expect((await c.check(workspace('c-1'))).is_valid).toBe(true);
    expect(fake.checks.slice(before)).toEqual(['c-1', 'c-2', 'c-1']);
  });

  it('keeps a failure for the shorter failure TTL', async () => {
    const clock = new ManualClock();
    const c = checker({ clock, ttlMs: 60_000, failureTtlMs: 15_000 });
    fake.set('f-1', { behaviour: 'error' });
    expect(await c.check(workspace('f-1'))).toEqual(UNAVAILABLE);
    fake.set('f-1', { is_valid: false, message: 'Expired.' });
    clock.advance(10_000);
    expect(await c.check(workspace('f-1'))).toEqual(UNAVAILABLE);
    clock.advance(6_000);
    expect(await c.check(workspace('f-1'))).toEqual({ is_valid: false, message: 'Expired.' });
  });

  it('shares one request among the checks of a workspace made while it is under way', async () => {
    const c = checker();
    const before = fake.checks.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => c.check(workspace('s-1'))));
    expect(new Set(answers).size).toBe(1);
    expect(fake.checks.slice(before)).toEqual(['s-1']);
  });

  it('holds at most maxEntries workspaces, the oldest going first', async () => {
    const c = checker({ maxEntries: 2 });
    const before = fake.checks.length;
    for (const id of ['e-1', 'e-2', 'e-3', 'e-2', 'e-1']) await c.check(workspace(id));
    // e-1 was dropped when e-3 came in; e-2 was still kept.
    expect(fake.checks.slice(before)).toEqual(['e-1', 'e-2', 'e-3', 'e-1']);
  });
});

describe('the static checker and the choice by configuration', () => {
  it('answers from its table, valid for any other workspace, and can be changed', async () => {
    const c = createStaticCredentialChecker({ a: { is_valid: false, message: 'Expired.\n' } });
    expect(await c.check(workspace('a'))).toEqual({ is_valid: false, message: 'Expired.' });
    expect(await c.check(workspace('b'))).toEqual(VALID);
    c.set('b', { is_valid: false, message: null });
    c.set('a', null);
    expect(await c.check(workspace('a'))).toEqual(VALID);
    expect(await c.check(workspace('b'))).toEqual({ is_valid: false, message: null });
  });

  it('without CREDENTIAL_CHECK_URL every workspace is valid; with it the endpoint is asked', async () => {
    const clock = new ManualClock();
    expect(
      await createCredentialChecker({ credentialCheckUrl: undefined }, { clock }).check(
        workspace('x'),
      ),
    ).toEqual(VALID);
    const fake = await startCredentialFake();
    try {
      fake.set('x', { is_valid: false, message: 'No.' });
      const c = createCredentialChecker({ credentialCheckUrl: fake.checkUrl }, { clock });
      expect(await c.check(workspace('x'))).toEqual({ is_valid: false, message: 'No.' });
    } finally {
      await fake.close();
    }
  });

  it('cleanMessage: null for nothing, text otherwise', () => {
    expect(cleanMessage(null)).toBeNull();
    expect(cleanMessage(undefined)).toBeNull();
    expect(cleanMessage('')).toBeNull();
    expect(cleanMessage('a\u0085b\r\nc')).toBe('a b c');
    // A cut never splits a surrogate pair.
    const cut = cleanMessage('😀'.repeat(400))!;
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(CREDENTIAL_MESSAGE_MAX_LENGTH);
    expect(/\p{Cs}/u.test(cut)).toBe(false);
  });
});
