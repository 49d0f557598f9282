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
import { requireActor } from './index.ts';

/**
 * The access layer through probe routes that declare rules exactly as module routes do: each
 * answers who the actor is, so the test sees what the hook decided and what it handed on.
 */
describe('access layer', () => {
  let t: TestApp;
  const tokens = new Map<string, string>();
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
            handler: async (request) => ({ actor: request.actor }),
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

  it('lets a route declared public through without a session, and with no actor', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/v1/organizations/probe/public/',
    });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ actor: null });
    // A bad token is not an error either: the route does not look at it.
    const forged = await t.app.inject({
      method: 'POST',
      url: '/v1/organizations/probe/public/',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(forged.statusCode).toBe(200);
  });

  it('stops the app from starting when a tenant route declares no rule', async () => {
    const app = await buildApp(t.ctx.config, { database: t.ctx.database, clock: t.clock });
    expect(() =>
      app.get('/v1/organizations/:orgId/open/', { handler: async () => ({ open: true }) }),
    ).toThrow(/must declare config.access/);
    await app.close();
  });
});
