import { CREDENTIAL_CHECK_UNAVAILABLE_MESSAGE, ErrorCode } from '@portolan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { startCredentialFake, type CredentialFake } from '../../../test/support/credential-fake.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { createStaticCredentialChecker } from '../../lib/credentials/index.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

const statusOf = (clientId: string) => `/v1/clients/${clientId}/credential-status/`;
const UNAVAILABLE = { is_valid: true, message: CREDENTIAL_CHECK_UNAVAILABLE_MESSAGE };

/**
 * GET /v1/clients/{id}/credential-status/ with CREDENTIAL_CHECK_URL pointing at a real local
 * HTTP server (test/support/credential-fake.ts), as configured in production.
 */
describe('GET /v1/clients/{id}/credential-status/', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  let fake: CredentialFake;
  let logLines: string[];
  /** A workspace with a member of each workspace role. */
  let clientId: string;
  let ws: Record<'MANAGER' | 'STAFF' | 'CLIENT', Person>;

  /** A new workspace of the organization (owned by its OWNER) whose check answers `behaviour`. */
  const workspaceAnswering = async (behaviour: Parameters<CredentialFake['set']>[1]) => {
    const { id } = await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: p.OWNER.id });
    fake.set(id, behaviour);
    return id;
  };

  beforeAll(async () => {
    fake = await startCredentialFake();
    logLines = [];
    t = await createTestApp(
      { CREDENTIAL_CHECK_URL: fake.checkUrl, LOG_LEVEL: 'warn' },
      { logStream: { write: (line) => void logLines.push(line) } },
    );
    s = await createTenantScene(t);
    p = s.people;
    clientId = await workspaceAnswering({
      is_valid: false,
      message: 'The Amazon seller token has expired. Reconnect it in Seller Central.',
    });
    ws = {} as typeof ws;
    for (const role of ['MANAGER', 'STAFF', 'CLIENT'] as const) {
      ws[role] = await s.member(role === 'CLIENT' ? 'CLIENT' : 'STAFF');
      await addClientMember(t.ctx.db, { clientId, userId: ws[role].id, role });
    }
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  describe('who may read it', () => {
    const invalid = {
      is_valid: false,
      message: 'The Amazon seller token has expired. Reconnect it in Seller Central.',
    };

    it('every member of the workspace, external CLIENTs included, and the organization’s OWNER and ADMIN', async () => {
      for (const who of [p.OWNER, p.ADMIN, ws.MANAGER, ws.STAFF, ws.CLIENT]) {
        const res = await s.send('GET', statusOf(clientId), who);
        expect(res.statusCode, who.email).toBe(200);
        expect(res.json()).toEqual(invalid);
      }
    });

    it('answers 404 to members of the organization outside the workspace and to another organization', async () => {
      for (const who of [p.STAFF, p.CLIENT, p.STRANGER]) {
        const res = await s.send('GET', statusOf(clientId), who);
        expect(res.statusCode, who.email).toBe(404);
        expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
      }
      const theirs = await createClient(t.ctx.db, {
        organizationId: s.otherOrgId,
        ownerId: p.STRANGER.id,
      });
      expect((await s.send('GET', statusOf(theirs.id), p.OWNER)).statusCode).toBe(404);
      expect((await s.send('GET', statusOf(theirs.id), p.STRANGER)).statusCode).toBe(200);
    });

    it('answers 401 anonymously, 400 naming the id for a bad one, 404 for no such or a deleted workspace', async () => {
      const anonymous = await s.send('GET', statusOf(clientId), 'anonymous');
      expect(anonymous.statusCode).toBe(401);
      const bad = await s.send('GET', statusOf('not-a-uuid'), p.OWNER);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
      expect(JSON.stringify(bad.json().details)).toContain('id');
      expect((await s.send('GET', statusOf(crypto.randomUUID()), p.OWNER)).statusCode).toBe(404);
      const doomed = await workspaceAnswering({ is_valid: true });
      const del = await s.send(
        'DELETE',
        `/v1/organizations/${s.orgId}/clients/${doomed}/`,
        p.OWNER,
      );
      expect(del.statusCode).toBe(204);
      expect((await s.send('GET', statusOf(doomed), p.OWNER)).statusCode).toBe(404);
    });

    it('shows a workspace waiting for approval to the organization’s OWNER and ADMIN only', async () => {
      const pending = await createClient(t.ctx.db, {
        organizationId: s.orgId,
        ownerId: p.STAFF.id,
        active: false,
      });
      expect((await s.send('GET', statusOf(pending.id), p.ADMIN)).statusCode).toBe(200);
      expect((await s.send('GET', statusOf(pending.id), p.STAFF)).statusCode).toBe(404);
    });
  });

  describe('what the checker said', () => {
    it('valid: is_valid true, no message; the checker was asked for this workspace', async () => {
      const id = await workspaceAnswering({ is_valid: true, message: null });
      const res = await s.send('GET', statusOf(id), p.OWNER);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ is_valid: true, message: null });
      expect(fake.checks).toContain(id);
    });

    it('serves the message as text in JSON: markup stays characters, never HTML', async () => {
      const message = '<img src=x onerror=alert(1)> Token "expired" & revoked';
      const id = await workspaceAnswering({ is_valid: false, message });
      const res = await s.send('GET', statusOf(id), p.OWNER);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ is_valid: false, message });
    });

    it.each(['garbage', 'wrong-shape', 'error', 'huge'] as const)(
      'a %s answer is a 200 saying the check could not be made, not an invalid credential',
      async (behaviour) => {
        const id = await workspaceAnswering({ behaviour });
        const res = await s.send('GET', statusOf(id), p.OWNER);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(UNAVAILABLE);
        expect(
          logLines.some((l) => l.includes('credential check unavailable') && l.includes(id)),
        ).toBe(true);
      },
    );

    it('a checker that hangs is given up after 3 s, with the same answer', async () => {
      const id = await workspaceAnswering({ behaviour: 'hang' });
      const started = Date.now();
      const res = await s.send('GET', statusOf(id), p.OWNER);
      const took = Date.now() - started;
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(UNAVAILABLE);
      expect(took).toBeGreaterThanOrEqual(2_900);
      expect(took).toBeLessThan(6_000);
      // The failure is kept a little while: the next page load does not wait again.
      const again = Date.now();
      expect((await s.send('GET', statusOf(id), p.ADMIN)).json()).toEqual(UNAVAILABLE);
      expect(Date.now() - again).toBeLessThan(1_000);
    });

    it('keeps an answer per workspace for 60 s, whoever asks, then asks again', async () => {
      const id = await workspaceAnswering({ is_valid: false, message: 'Expired.' });
      const asked = () => fake.checks.filter((c) => c === id).length;
      expect((await s.send('GET', statusOf(id), p.OWNER)).json().is_valid).toBe(false);
      fake.set(id, { is_valid: true });
      t.clock.advance(50_000);
      for (const who of [p.OWNER, p.ADMIN]) {
        expect((await s.send('GET', statusOf(id), who)).json()).toEqual({
          is_valid: false,
          message: 'Expired.',
        });
      }
      expect(asked()).toBe(1);
      t.clock.advance(11_000);
      expect((await s.send('GET', statusOf(id), p.OWNER)).json()).toEqual({
        is_valid: true,
        message: null,
      });
      expect(asked()).toBe(2);
    });
  });
});

describe('GET /v1/clients/{id}/credential-status/ without CREDENTIAL_CHECK_URL', () => {
  let t: TestApp;
  let s: TenantScene;
  let clientId: string;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    clientId = (
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: s.people.OWNER.id })
    ).id;
  });
  afterAll(() => t.close());

  it('every workspace is valid', async () => {
    const res = await s.send('GET', statusOf(clientId), s.people.OWNER);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ is_valid: true, message: null });
  });

  it('a checker given in place of the configured one is the one asked', async () => {
    t.ctx.credentials = createStaticCredentialChecker({
      [clientId]: { is_valid: false, message: 'Seller account suspended.' },
    });
    const res = await s.send('GET', statusOf(clientId), s.people.OWNER);
    expect(res.json()).toEqual({ is_valid: false, message: 'Seller account suspended.' });
  });
});
