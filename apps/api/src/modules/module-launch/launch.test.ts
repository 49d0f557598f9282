import {
  DEFAULT_ROLE_RULES,
  PERMISSION_CATALOGUE,
  PERMISSION_KEYS,
  type ModuleLaunch,
} from '@portolan/contract';
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

const TR_URL = 'https://tr.example.com/launch';

/**
 * POST /v1/clients/{clientId}/modules/{module}/launch/ (issue 21 item 4): the token verifies
 * against the published JWKS with the right claims for each kind of member; who may launch; what
 * is refused.
 */
describe('launching a module', () => {
  let t: TestApp;
  let s: TenantScene;
  let workspace: string;
  let log = '';

  beforeAll(async () => {
    t = await createTestApp(
      { MODULE_URLS: `TR=${TR_URL}`, LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void (log += line) } },
    );
    s = await createTenantScene(t);
    const db = t.ctx.db;
    workspace = (await createClient(db, { organizationId: s.orgId, ownerId: s.people.OWNER.id }))
      .id;
    await addClientMember(db, { clientId: workspace, userId: s.people.STAFF.id, role: 'STAFF' });
    await addClientMember(db, { clientId: workspace, userId: s.people.CLIENT.id, role: 'CLIENT' });
  });
  afterAll(() => t.close());

  const launch = (who: Person | 'anonymous', module = 'TR', clientId = workspace) =>
    s.send('POST', `/v1/clients/${clientId}/modules/${module}/launch/`, who);

  const launched = async (who: Person, module = 'TR', clientId = workspace) => {
    const res = await launch(who, module, clientId);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ModuleLaunch;
  };

  /** Verifies as a module would: the JWKS fetched from the route, the module's audience. */
  const verify = async (token: string, audience = 'portolan-module:TR') => {
    const jwks = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(jwks.statusCode).toBe(200);
    return jwtVerify(token, createLocalJWKSet(jwks.json()), {
      issuer: t.ctx.config.publicUrl,
      audience,
      algorithms: ['ES256'],
      currentDate: t.clock.now(),
    });
  };

  const expectClaims = (payload: JWTPayload, who: Person, role: string) =>
    expect(payload).toMatchObject({
      iss: t.ctx.config.publicUrl,
      aud: 'portolan-module:TR',
      sub: who.id,
      client: workspace,
      org: s.orgId,
      role,
    });

  const TR_KEYS = PERMISSION_CATALOGUE.filter((p) => p.module === 'TR').map((p) => p.key);

  it('gives the OWNER a token the JWKS verifies: who, where, every TR permission, 5 minutes', async () => {
    const before = Math.floor(t.clock.now().getTime() / 1000);
    const body = await launched(s.people.OWNER);
    expect(body.url).toBe(TR_URL);
    const { payload, protectedHeader } = await verify(body.token);
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(protectedHeader.kid).toMatch(/^[\w-]{16,}$/);
    expectClaims(payload, s.people.OWNER, 'OWNER');
    expect(payload.permissions).toEqual(TR_KEYS);
    expect(payload.iat).toBe(before);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(300);
    expect(payload.exp! - payload.iat!).toBeGreaterThan(0);
    expect(new Date(body.expires_at).getTime()).toBe(payload.exp! * 1000);
    expect(payload.jti).toMatch(/^[\w-]{16,}$/);
    // Each launch is a token of its own.
    const again = await launched(s.people.OWNER);
    expect((await verify(again.token)).payload.jti).not.toBe(payload.jti);
  });

  it('expires after 5 minutes and is refused by another module', async () => {
    const { token } = await launched(s.people.OWNER);
    await expect(verify(token, 'portolan-module:PF')).rejects.toBeInstanceOf(
      errors.JWTClaimValidationFailed,
    );
    t.clock.advance(301_000);
    try {
      await expect(verify(token)).rejects.toBeInstanceOf(errors.JWTExpired);
    } finally {
      t.clock.advance(-301_000);
    }
  });

  it('carries a STAFF member’s effective permissions: the staff rule less a custom DENY', async () => {
    const deny = await s.send(
      'PUT',
      `/v1/clients/${workspace}/users/${s.people.STAFF.id}/permissions/TR/history/`,
      s.people.OWNER,
      { permissions: [{ permission: 'tr.history.view', status: 'DENY' }] },
    );
    expect(deny.statusCode, deny.body).toBe(200);
    const { payload } = await verify((await launched(s.people.STAFF)).token);
    expectClaims(payload, s.people.STAFF, 'STAFF');
    const staffRule = DEFAULT_ROLE_RULES.STAFF.statuses as Record<string, string>;
    const expected = PERMISSION_KEYS.filter(
      (key) => staffRule[key] === 'ALLOW' && key !== 'tr.history.view',
    );
    expect(payload.permissions).toEqual(expected);
    expect(payload.permissions).toContain('tr.history.extract');
    expect(payload.permissions).not.toContain('tr.history.view');
    expect(payload.permissions).not.toContain('tr.settings.update');
  });

  it('gives a CLIENT their role and no permission (the default role allows none)', async () => {
    const { payload } = await verify((await launched(s.people.CLIENT)).token);
    expectClaims(payload, s.people.CLIENT, 'CLIENT');
    expect(payload.permissions).toEqual([]);
  });

  it('lets the organization’s OWNERs and ADMINs launch through their organization role', async () => {
    const admin = await verify((await launched(s.people.ADMIN)).token);
    expectClaims(admin.payload, s.people.ADMIN, 'ADMIN');
    expect(admin.payload.permissions).toEqual(TR_KEYS);
    const coOwner = await s.member('OWNER');
    const owner = await verify((await launched(coOwner)).token);
    expectClaims(owner.payload, coOwner, 'OWNER');
  });

  it('answers 401 anonymous, 404 outside the workspace or the organization', async () => {
    const anonymous = await launch('anonymous');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('NOT_AUTHENTICATED');
    const outsiders = [await s.member('STAFF'), await s.member('CLIENT'), s.people.STRANGER];
    for (const who of outsiders) {
      const res = await launch(who);
      expect(res.statusCode, who.email).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    // Another organization's workspace, by its OWNER's neighbour.
    const elsewhere = await createClient(t.ctx.db, {
      organizationId: s.otherOrgId,
      ownerId: s.people.STRANGER.id,
    });
    expect((await launch(s.people.OWNER, 'TR', elsewhere.id)).statusCode).toBe(404);
    expect((await launch(s.people.STRANGER, 'TR', elsewhere.id)).statusCode).toBe(200);
  });

  it('refuses a module switched off in the workspace, or not part of this app (409)', async () => {
    const off = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
      enabledModules: [],
    });
    const res = await launch(s.people.OWNER, 'TR', off.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'MODULE_NOT_ENABLED' });
    expect(res.json().message).toContain('2D Transit is switched off in this workspace');
    const other = await launch(s.people.OWNER, 'PF');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({
      code: 'MODULE_NOT_ENABLED',
      message: 'Precise Financial is not part of this app.',
    });
  });

  it('answers 400 naming the field for a module that is none, or a malformed id', async () => {
    const module = await launch(s.people.OWNER, 'XX');
    expect(module.statusCode).toBe(400);
    expect(module.json().code).toBe('VALIDATION_ERROR');
    expect(module.json().details).toEqual([{ field: 'module', message: expect.any(String) }]);
    const lower = await launch(s.people.OWNER, 'tr');
    expect(lower.statusCode).toBe(400);
    const id = await launch(s.people.OWNER, 'TR', 'not-a-uuid');
    expect(id.statusCode).toBe(400);
    expect(id.json().details).toEqual([{ field: 'clientId', message: 'Not a valid id.' }]);
    const unknown = await launch(s.people.OWNER, 'TR', crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
  });

  it('keeps the token out of caches and the log; lets the web app post it to the module', async () => {
    const res = await launch(s.people.OWNER);
    expect(res.headers['cache-control']).toBe('no-store');
    const { token } = res.json() as ModuleLaunch;
    expect(decodeProtectedHeader(token).alg).toBe('ES256');
    expect(log).toContain('/launch/');
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split('.')[2]);
    // The page's form-action allows the module's own app, and only that beside itself.
    expect(res.headers['content-security-policy']).toContain(
      "form-action 'self' https://tr.example.com;",
    );
    const config = await t.app.inject({ method: 'GET', url: '/v1/config' });
    expect(config.json().launchable_modules).toEqual(['TR']);
  });
});
