import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCode, type OrgRole, type Role } from '@portolan/contract';
import { bearer, createTestApp, signIn, type TestApp } from '../../../test/support/app.ts';
import {
  addClientMember,
  addOrganizationMember,
  createClient,
  createOrganization,
  createUser,
  FACTORY_PASSWORD,
} from '../../seed/factories.ts';
import { buildApp } from '../../app.ts';
import { grantPlatformAdmin } from '../release-notes/index.ts';
import { requireActor, requireAuth } from './index.ts';

/**
 * The request kernel through probe routes that declare rules exactly as module routes do: each
 * answers who the caller or actor is, so the test sees what the kernel decided and handed on.
 */
describe('request kernel', () => {
  let t: TestApp;
  const tokens = new Map<string, string>();
  const ids = new Map<string, string>();
  let orgId: string;
  let otherOrgId: string;
  let clientId: string;
  let pendingClientId: string;

  const user = async (label: string) => {
    const row = await createUser(t.ctx.db);
    tokens.set(label, await signIn(t, row.email, FACTORY_PASSWORD));
    return row;
  };

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        beforeReady: (app) => {
          const uuidParams = (name: string) => z.object({ [name]: z.uuid() });
          app.put('/v1/organizations/:orgId/probe/', {
            config: { access: { organization: 'orgId', permission: 'organization.update' } },
            schema: { params: uuidParams('orgId') },
            handler: async (request) => {
              const actor = requireActor(request);
              return { org: actor.organization.id, role: actor.orgRole };
            },
          });
          app.get('/v1/organizations/:orgId/probe/', {
            config: { access: { organization: 'orgId', permission: null } },
            schema: { params: uuidParams('orgId') },
            handler: async (request) => ({ role: requireActor(request).orgRole }),
          });
          app.patch('/v1/clients/:clientId/probe/', {
            config: { access: { client: 'clientId', permission: 'client.modules.update' } },
            schema: { params: uuidParams('clientId') },
            handler: async (request) => {
              const actor = requireActor(request);
              return { client: actor.client?.id, role: actor.workspaceRole, org: actor.orgRole };
            },
          });
          app.get('/v1/organizations/:orgId/clients/:clientId/probe/', {
            config: { access: { client: 'clientId', organization: 'orgId', permission: null } },
            schema: { params: z.object({ orgId: z.uuid(), clientId: z.uuid() }) },
            handler: async (request) => ({ client: requireActor(request).client?.id }),
          });
          app.post('/v1/organizations/probe/public/', {
            config: { access: { public: 'the body carries its own credential' } },
            handler: async (request) => ({ actor: request.actor, auth: request.auth }),
          });
          app.get('/probe/optional/', {
            config: { access: { public: 'reads the caller if any', optionalSession: true } },
            handler: async (request) => ({ user: request.auth?.userId ?? null }),
          });
          app.get('/v1/probe/signed-in/', {
            config: { access: { signedIn: 'the caller’s own' } },
            handler: async (request) => ({
              user: requireAuth(request).userId,
              actor: request.actor,
            }),
          });
          app.post('/v1/probe/admin/', {
            config: { access: { platformAdmin: 'probe' } },
            schema: { body: z.strictObject({ name: z.string() }) },
            handler: async (request) => ({ user: requireAuth(request).userId }),
          });
        },
      },
    );
    const owner = await user('OWNER');
    const org = await createOrganization(t.ctx.db, { ownerId: owner.id });
    orgId = org.id;
    for (const role of ['ADMIN', 'STAFF', 'CLIENT'] as OrgRole[]) {
      const member = await user(role);
      await addOrganizationMember(t.ctx.db, { organizationId: orgId, userId: member.id, role });
    }
    const pending = await user('PENDING');
    await addOrganizationMember(t.ctx.db, {
      organizationId: orgId,
      userId: pending.id,
      role: 'ADMIN',
      status: 'PENDING',
    });
    const stranger = await user('STRANGER');
    const admin = await user('PLATFORM_ADMIN');
    await grantPlatformAdmin(t.ctx.db, admin.email);
    ids.set('PLATFORM_ADMIN', admin.id);
    ids.set('STRANGER', stranger.id);
    otherOrgId = (await createOrganization(t.ctx.db, { ownerId: stranger.id })).id;

    const client = await createClient(t.ctx.db, { organizationId: orgId, ownerId: owner.id });
    clientId = client.id;
    for (const role of ['MANAGER', 'STAFF'] as Role[]) {
      const member = await user(`WS_${role}`);
      await addOrganizationMember(t.ctx.db, {
        organizationId: orgId,
        userId: member.id,
        role: 'CLIENT',
      });
      await addClientMember(t.ctx.db, { clientId, userId: member.id, role });
    }
    const pendingClient = await createClient(t.ctx.db, { organizationId: orgId, active: false });
    pendingClientId = pendingClient.id;
    const staffId = (await t.ctx.db.query.organizationMembers.findMany()).find(
      (m) => m.role === 'STAFF',
    )!.user_id;
    await addClientMember(t.ctx.db, { clientId: pendingClientId, userId: staffId, role: 'OWNER' });
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'PUT' | 'PATCH', url: string, who?: string) =>
    t.app.inject({ method, url, headers: who ? bearer(tokens.get(who)!) : {} });

  it('answers an organization route: 401 anonymous, 404 outside, 403 without the permission', async () => {
    const url = () => `/v1/organizations/${orgId}/probe/`;
    const expected: Record<string, number> = {
      OWNER: 200,
      ADMIN: 200,
      STAFF: 403,
      CLIENT: 403,
      PENDING: 404,
      STRANGER: 404,
    };
    for (const [who, status] of Object.entries(expected)) {
      const res = await send('PUT', url(), who);
      expect({ who, status: res.statusCode }).toEqual({ who, status });
      if (status === 403) expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
      if (status === 404) expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
    }
    expect((await send('PUT', url(), 'ADMIN')).json()).toEqual({ org: orgId, role: 'ADMIN' });
    expect((await send('PUT', url())).statusCode).toBe(401);
    const head = await t.app.inject({ method: 'HEAD', url: url() });
    expect(head.statusCode).toBe(401);
    const strangerHead = await t.app.inject({
      method: 'HEAD',
      url: url(),
      headers: bearer(tokens.get('STRANGER')!),
    });
    expect(strangerHead.statusCode).toBe(404);
    // Any member may use a route that asks for no permission.
    expect((await send('GET', url(), 'CLIENT')).json()).toEqual({ role: 'CLIENT' });
  });

  it('answers 404 alike for an organization that does not exist and one of another tenant', async () => {
    const missing = await send('GET', `/v1/organizations/${crypto.randomUUID()}/probe/`, 'OWNER');
    const foreign = await send('GET', `/v1/organizations/${otherOrgId}/probe/`, 'OWNER');
    expect(missing.statusCode).toBe(404);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
  });

  it('refuses a malformed id with 400 naming the parameter, before any lookup', async () => {
    const res = await send('GET', '/v1/organizations/not-a-uuid/probe/', 'OWNER');
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'orgId', message: expect.any(String) }]);
  });

  it('answers a workspace route by the stronger of the organization and workspace roles', async () => {
    const url = `/v1/clients/${clientId}/probe/`;
    const expected: Record<string, number> = {
      OWNER: 200, // OWNER of the workspace and of the organization
      ADMIN: 200, // organization ADMIN acts on every workspace
      WS_MANAGER: 200,
      WS_STAFF: 403,
      STAFF: 404, // organization STAFF who is not a member of this workspace
      CLIENT: 404,
      STRANGER: 404,
    };
    for (const [who, status] of Object.entries(expected)) {
      const res = await send('PATCH', url, who);
      expect({ who, status: res.statusCode }).toEqual({ who, status });
    }
    expect((await send('PATCH', url, 'WS_MANAGER')).json()).toEqual({
      client: clientId,
      role: 'MANAGER',
      org: 'CLIENT',
    });
  });

  it('keeps a workspace waiting for approval to the organization’s OWNERs and ADMINs', async () => {
    const url = `/v1/clients/${pendingClientId}/probe/`;
    expect((await send('PATCH', url, 'ADMIN')).statusCode).toBe(200);
    // STAFF holds OWNER in it, but it is not active yet.
    expect((await send('PATCH', url, 'STAFF')).statusCode).toBe(404);
  });

  it('answers 404 when the workspace is not of the organization in the path', async () => {
    const ok = await send('GET', `/v1/organizations/${orgId}/clients/${clientId}/probe/`, 'OWNER');
    expect(ok.json()).toEqual({ client: clientId });
    const crossed = await send(
      'GET',
      `/v1/organizations/${otherOrgId}/clients/${clientId}/probe/`,
      'STRANGER',
    );
    expect(crossed.statusCode).toBe(404);
  });

  it('public: lets anyone through with no caller and no actor, whatever token is sent', async () => {
    const url = '/v1/organizations/probe/public/';
    const anonymous = await t.app.inject({ method: 'POST', url });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ actor: null, auth: null });
    // A bad token is not an error either: the route does not look at it; nor at a good one.
    const forged = await t.app.inject({ method: 'POST', url, headers: bearer('not-a-token') });
    expect(forged.statusCode).toBe(200);
    const member = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(tokens.get('OWNER')!),
    });
    expect(member.json()).toEqual({ actor: null, auth: null });
  });

  it('public with optionalSession: the caller when a valid token is sent, else nobody', async () => {
    const probe = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/probe/optional/', headers });
    expect((await probe({})).json()).toEqual({ user: null });
    expect((await probe(bearer('not-a-token'))).json()).toEqual({ user: null });
    expect((await probe(bearer(tokens.get('STRANGER')!))).json()).toEqual({
      user: ids.get('STRANGER'),
    });
  });

  it('signedIn: 401 anonymous or with a bad token, anyone signed in through without an actor', async () => {
    const probe = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/v1/probe/signed-in/', headers });
    const anonymous = await probe({});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
    expect((await probe(bearer('not-a-token'))).statusCode).toBe(401);
    for (const who of ['OWNER', 'STRANGER', 'PLATFORM_ADMIN']) {
      const res = await probe(bearer(tokens.get(who)!));
      expect({ who, status: res.statusCode }).toEqual({ who, status: 200 });
      expect(res.json().actor).toBeNull();
    }
  });

  it('platformAdmin: 401 anonymous, 403 to anyone else before the body is read, the administrator through', async () => {
    const probe = (who: string | null, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/probe/admin/',
        headers: who ? bearer(tokens.get(who)!) : {},
        payload: body as object,
      });
    expect((await probe(null, { name: 'x' })).statusCode).toBe(401);
    for (const who of ['OWNER', 'ADMIN', 'STRANGER']) {
      // A body that would fail validation: the refusal comes first.
      const res = await probe(who, { wrong: true });
      expect({ who, status: res.statusCode }).toEqual({ who, status: 403 });
      expect(res.json()).toEqual({
        code: ErrorCode.PERMISSION_DENIED,
        message: 'Only platform administrators can probe.',
      });
    }
    expect((await probe('PLATFORM_ADMIN', { wrong: true })).statusCode).toBe(400);
    const ok = await probe('PLATFORM_ADMIN', { name: 'x' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ user: ids.get('PLATFORM_ADMIN') });
  });

  it.each([
    ['a tenant path', '/v1/organizations/:orgId/open/'],
    ['another API path', '/v1/health2'],
    ['a path outside the API', '/open-page'],
  ])('refuses to start when %s declares no access, naming the route', async (_what, url) => {
    const app = await buildApp(t.ctx.config, { database: t.ctx.database, clock: t.clock });
    app.get(url, { handler: async () => ({ open: true }) });
    await expect(app.ready()).rejects.toThrow(
      `every route must declare config.access (public, signedIn, tenant or platformAdmin); these do not: GET ${url}; HEAD ${url}`,
    );
    await app.close();
  });

  it('refuses to start when a route wires app.authenticate itself', async () => {
    const app = await buildApp(t.ctx.config, { database: t.ctx.database, clock: t.clock });
    expect(() =>
      app.get('/v1/wired/', {
        config: { access: { signedIn: 'x' } },
        onRequest: app.authenticate,
        handler: async () => ({}),
      }),
    ).toThrow('GET /v1/wired/ wires app.authenticate: declare config.access instead');
    await app.close();
  });
});
