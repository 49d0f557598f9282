// engine-parity: COPY and exports
import { ErrorCode } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { dataExports } from '../../db/schema/index.ts';
import { runJob } from './test-support.ts';

/**
 * The data export calls: who may ask, list and download (the permission matrix of each), the
 * bound of one export in progress, and bad input. Runs on both engines.
 */
describe('data export routes', () => {
  let t: TestApp;
  let s: TenantScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const orgUrl = (orgId = s.orgId) => `/v1/organizations/${orgId}/data-exports/`;

  it('answers 401 to anonymous callers on every signed-in route', async () => {
    const id = crypto.randomUUID();
    for (const [method, url] of [
      ['POST', '/v1/data-exports/'],
      ['GET', '/v1/data-exports/'],
      ['POST', orgUrl()],
      ['GET', orgUrl()],
      ['GET', `/v1/data-exports/${id}/download/`],
    ] as const) {
      const res = await s.send(method, url, 'anonymous');
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
    }
  });

  it('lets anyone signed in ask for their own data (202, PENDING), once at a time', async () => {
    const user = await s.person();
    const first = await s.send('POST', '/v1/data-exports/', user);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({
      kind: 'USER',
      organization_id: null,
      status: 'PENDING',
      file_name: null,
      size_bytes: null,
      is_expired: false,
      download_url: null,
      created: t.clock.now().toISOString(),
    });
    const second = await s.send('POST', '/v1/data-exports/', user);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      code: ErrorCode.DATA_EXPORT_IN_PROGRESS,
      message: expect.stringMatching(/already being prepared/),
      details: { export_id: first.json().id },
    });
    // Another person is not held back by it, nor is an organization export of the same person.
    expect((await s.send('POST', '/v1/data-exports/', await s.person())).statusCode).toBe(202);
  });

  it.each([
    ['OWNER', 202],
    ['ADMIN', 403],
    ['STAFF', 403],
    ['CLIENT', 403],
    ['STRANGER', 404],
  ] as const)('lets only OWNERs ask for the organization’s data: %s → %i', async (who, status) => {
    const res = await s.send('POST', orgUrl(), s.people[who]);
    expect(res.statusCode).toBe(status);
    if (status === 202) {
      expect(res.json()).toMatchObject({ kind: 'ORGANIZATION', organization_id: s.orgId });
    } else {
      expect(res.json().code).toBe(
        status === 403 ? ErrorCode.PERMISSION_DENIED : ErrorCode.NOT_FOUND,
      );
    }
  });

  it('bounds organization exports per requester and organization', async () => {
    // The OWNER's export of the previous test is still pending.
    const again = await s.send('POST', orgUrl(), s.people.OWNER);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe(ErrorCode.DATA_EXPORT_IN_PROGRESS);
    // A second OWNER has a bound of their own; the first OWNER's own data is a separate kind.
    expect((await s.send('POST', orgUrl(), await s.member('OWNER'))).statusCode).toBe(202);
    expect((await s.send('POST', '/v1/data-exports/', s.people.OWNER)).statusCode).toBe(202);
  });

  it.each([
    ['OWNER', 200],
    ['ADMIN', 403],
    ['STAFF', 403],
    ['CLIENT', 403],
    ['STRANGER', 404],
  ] as const)('lists the organization’s exports to OWNERs only: %s → %i', async (who, status) => {
    const res = await s.send('GET', orgUrl(), s.people[who]);
    expect(res.statusCode).toBe(status);
    if (status === 200) {
      // Only the caller's own: the second OWNER's export is theirs.
      expect(res.json()).toMatchObject({ count: 1, next: null, previous: null });
      expect(res.json().results[0]).toMatchObject({ kind: 'ORGANIZATION', status: 'PENDING' });
    }
  });

  it('lists only the caller’s own personal exports, newest first, a page at a time', async () => {
    const user = await s.person();
    for (let i = 0; i < 3; i++) {
      expect((await s.send('POST', '/v1/data-exports/', user)).statusCode).toBe(202);
      await t.ctx.db
        .update(dataExports)
        .set({ status: 'FAILED', error: 'test' })
        .where(eq(dataExports.user_id, user.id));
      t.clock.advance(1000);
    }
    const page = await s.send('GET', '/v1/data-exports/?limit=2', user);
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body).toMatchObject({ count: 3, next: 2, previous: null });
    expect(body.results).toHaveLength(2);
    expect(body.results[0].created > body.results[1].created).toBe(true);
    const last = await s.send('GET', '/v1/data-exports/?limit=2&page=2', user);
    expect(last.json()).toMatchObject({ count: 3, next: null, previous: 1 });
    expect((await s.send('GET', '/v1/data-exports/?page=9', user)).json().results).toEqual([]);
    // Someone else sees none of them; organization exports are not in the personal list.
    const other = await s.send('GET', '/v1/data-exports/', await s.person());
    expect(other.json()).toMatchObject({ count: 0, results: [] });
    const owner = await s.send('GET', '/v1/data-exports/', s.people.OWNER);
    expect(owner.json().results.every((e: { kind: string }) => e.kind === 'USER')).toBe(true);
  });

  it('refuses bad input with 400 naming the field', async () => {
    for (const [url, field] of [
      ['/v1/data-exports/?limit=0', 'limit'],
      ['/v1/data-exports/?page=x', 'page'],
      ['/v1/data-exports/?limit=1000', 'limit'],
      ['/v1/data-exports/?sort=size', ''],
      ['/v1/organizations/not-a-uuid/data-exports/', 'orgId'],
      ['/v1/data-exports/not-a-uuid/download/', 'exportId'],
      ['/v1/data-exports/download/short/', 'token'],
      [`/v1/data-exports/download/${'a'.repeat(42)}!/`, 'token'],
    ] as const) {
      const res = await s.send('GET', url, s.people.OWNER);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
      if (field) expect(JSON.stringify(res.json().details), url).toContain(field);
    }
    const post = await s.send('POST', '/v1/organizations/nope/data-exports/', s.people.OWNER);
    expect(post.statusCode).toBe(400);
  });

  it('downloads an export for its requester only, and only when ready', async () => {
    const user = await s.person();
    const made = (await s.send('POST', '/v1/data-exports/', user)).json();
    const url = `/v1/data-exports/${made.id}/download/`;
    const early = await s.send('GET', url, user);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe(ErrorCode.DATA_EXPORT_NOT_READY);

    await runJob(t);
    const ok = await s.send('GET', url, user);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/zip');
    expect(ok.headers['content-disposition']).toMatch(
      /^attachment; filename="portolan-my-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(ok.headers['cache-control']).toBe('private, no-store');
    expect(Number(ok.headers['content-length'])).toBe(ok.rawPayload.length);
    // Anybody else, an OWNER included, gets the same 404 as for an export that does not exist.
    for (const who of [s.people.OWNER, s.people.STRANGER, await s.person()]) {
      const res = await s.send('GET', url, who);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
    }
    const none = await s.send('GET', `/v1/data-exports/${crypto.randomUUID()}/download/`, user);
    expect(none.statusCode).toBe(404);
    const list = (await s.send('GET', '/v1/data-exports/', user)).json();
    expect(list.results[0]).toMatchObject({ status: 'READY', download_url: url });
    expect(list.results[0].size_bytes).toBe(ok.rawPayload.length);
  });

  it('lets the organization’s export be downloaded only while its requester is an OWNER', async () => {
    const owner = await s.member('OWNER');
    const made = (await s.send('POST', orgUrl(), owner)).json();
    await runJob(t);
    const url = `/v1/data-exports/${made.id}/download/`;
    expect((await s.send('GET', url, owner)).statusCode).toBe(200);
    // Another OWNER of the organization: not theirs.
    expect((await s.send('GET', url, s.people.OWNER)).statusCode).toBe(404);
    // Demoted to ADMIN: 403; removed from the organization: 404.
    const demote = await s.send(
      'PUT',
      `/v1/organizations/${s.orgId}/users/${owner.id}/role/`,
      s.people.OWNER,
      { role: 'ADMIN' },
    );
    expect(demote.statusCode).toBe(200);
    const refused = await s.send('GET', url, owner);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    const removed = await s.send(
      'DELETE',
      `/v1/organizations/${s.orgId}/users/${owner.id}/?choice=remove_everywhere`,
      s.people.OWNER,
    );
    expect(removed.statusCode).toBe(204);
    expect((await s.send('GET', url, owner)).statusCode).toBe(404);
  });

  it('answers 404 to a well-formed but unknown link', async () => {
    const res = await s.send('GET', `/v1/data-exports/download/${'A'.repeat(43)}/`, 'anonymous');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: ErrorCode.NOT_FOUND,
      message: expect.stringMatching(/link is not valid/),
    });
  });
});
