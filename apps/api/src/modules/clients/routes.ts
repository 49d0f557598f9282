import {
  appIdParam,
  clientApplicationSchema,
  clientApplicationUpdateSchema,
  clientCreateInOrganizationSchema,
  clientCreateSchema,
  clientListQuerySchema,
  clientModuleSchema,
  clientPageSchema,
  clientReplaceSchema,
  clientSchema,
  clientUpdateSchema,
  errorBodySchema,
  moduleIdParam,
  moduleUpdateSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor, requireAuth } from '../access/index.ts';
import {
  approveClient,
  createClient,
  createClientIn,
  deleteClient,
  getApplication,
  getClient,
  getModules,
  listClients,
  onClient,
  setApplication,
  setModule,
  updateClient,
} from './service.ts';

const tags = ['clients'];
const security = [{ bearerAuth: [] }];

const orgParams = z.strictObject({ orgId: z.uuid() });
const orgClientParams = z.strictObject({ orgId: z.uuid(), clientId: z.uuid() });
const clientParams = z.strictObject({ id: z.uuid() });

/** The errors every tenant route may answer. */
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/**
 * Workspaces: under their organization (spec §7 "Organizations": list, create, change, delete,
 * approve, applications) and on their own (§7 "Clients": create, read, change, modules).
 */
export async function clientRoutes(app: App): Promise<void> {
  const { ctx } = app;

  // ---- under the organization ----------------------------------------------------------------

  app.get('/v1/organizations/:orgId/clients/', {
    config: { access: { organization: 'orgId', permission: 'organization.clients.read' } },
    schema: {
      tags,
      summary:
        'Workspaces of the organization: every one for OWNER and ADMIN; for others the active ones they belong to and the pending ones they created',
      security,
      params: orgParams,
      querystring: clientListQuerySchema,
      response: { 200: clientPageSchema, ...errors },
    },
    handler: async (request) => listClients(ctx, requireActor(request), request.query),
  });

  app.post('/v1/organizations/:orgId/clients/', {
    config: { access: { organization: 'orgId', permission: 'organization.clients.create' } },
    schema: {
      tags,
      summary:
        'Create a workspace: active when an OWNER or ADMIN creates it, pending approval when STAFF does',
      security,
      params: orgParams,
      body: clientCreateSchema,
      response: { 201: clientSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await createClient(ctx, requireActor(request), request.body)),
  });

  app.put('/v1/organizations/:orgId/clients/:clientId/', {
    config: { access: { client: 'clientId', organization: 'orgId', permission: 'client.update' } },
    schema: {
      tags,
      summary: 'Change a workspace (name required; logo and dashboard button colour optional)',
      security,
      params: orgClientParams,
      body: clientReplaceSchema,
      response: { 200: clientSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) => updateClient(ctx, onClient(requireActor(request)), request.body),
  });

  app.delete('/v1/organizations/:orgId/clients/:clientId/', {
    config: {
      access: {
        client: 'clientId',
        organization: 'orgId',
        permission: 'organization.clients.manage',
      },
    },
    schema: {
      tags,
      summary: 'Delete a workspace (OWNER or ADMIN of the organization); its name is free again',
      security,
      params: orgClientParams,
      response: { 204: z.null().describe('Deleted'), ...errors },
    },
    handler: async (request, reply) => {
      await deleteClient(ctx, onClient(requireActor(request)));
      return reply.status(204).send(null);
    },
  });

  app.post('/v1/organizations/:orgId/clients/:clientId/approve/', {
    config: {
      access: {
        client: 'clientId',
        organization: 'orgId',
        permission: 'organization.clients.manage',
      },
    },
    schema: {
      tags,
      summary:
        'Approve a pending workspace: active, the organization’s OWNERs and ADMINs and its creator get access, modules on if none was',
      security,
      params: orgClientParams,
      response: { 200: clientSchema, ...errors },
    },
    handler: async (request) => approveClient(ctx, onClient(requireActor(request))),
  });

  const appParams = orgClientParams.extend({ appId: appIdParam });

  app.get('/v1/organizations/:orgId/clients/:clientId/apps/:appId/', {
    config: { access: { client: 'clientId', organization: 'orgId', permission: 'client.read' } },
    schema: {
      tags,
      summary: 'One application (app profile) of a workspace: its modules and their states',
      security,
      params: appParams,
      response: { 200: clientApplicationSchema, ...errors },
    },
    handler: async (request) =>
      getApplication(ctx, onClient(requireActor(request)), request.params.appId),
  });

  app.post('/v1/organizations/:orgId/clients/:clientId/apps/:appId/', {
    config: {
      access: { client: 'clientId', organization: 'orgId', permission: 'client.modules.update' },
    },
    schema: {
      tags,
      summary:
        'Switch every module of an application on or off; refused only when it would leave the workspace without an enabled module',
      security,
      params: appParams,
      body: clientApplicationUpdateSchema,
      response: { 200: clientApplicationSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) =>
      setApplication(
        ctx,
        onClient(requireActor(request)),
        request.params.appId,
        request.body.enabled,
      ),
  });

  // ---- on their own ----------------------------------------------------------------------------

  app.post('/v1/clients/', {
    config: { access: { signedIn: 'the organization is named in the body' } },
    schema: {
      tags,
      summary:
        'Create a workspace in the organization named in the body (same rules as under the organization)',
      security,
      body: clientCreateInOrganizationSchema,
      response: { 201: clientSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await createClientIn(ctx, requireAuth(request), request.body)),
  });

  app.get('/v1/clients/:id/', {
    config: { access: { client: 'id', permission: 'client.read' } },
    schema: {
      tags,
      summary: 'A workspace, with its modules and the caller’s role in it',
      security,
      params: clientParams,
      response: { 200: clientSchema, ...errors },
    },
    handler: async (request) => getClient(ctx, onClient(requireActor(request))),
  });

  app.patch('/v1/clients/:id/', {
    config: { access: { client: 'id', permission: 'client.update' } },
    schema: {
      tags,
      summary: 'Change name, logo or dashboard button colour of a workspace',
      security,
      params: clientParams,
      body: clientUpdateSchema,
      response: { 200: clientSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) => updateClient(ctx, onClient(requireActor(request)), request.body),
  });

  app.get('/v1/clients/:id/modules/', {
    config: { access: { client: 'id', permission: 'client.read' } },
    schema: {
      tags,
      summary: 'The modules of a workspace and whether each is enabled',
      security,
      params: clientParams,
      response: { 200: z.array(clientModuleSchema), ...errors },
    },
    handler: async (request) => getModules(ctx, onClient(requireActor(request))),
  });

  app.patch('/v1/clients/:id/modules/:moduleId/', {
    config: { access: { client: 'id', permission: 'client.modules.update' } },
    schema: {
      tags,
      summary:
        'Set a module on or off as asked (moduleId: a module code such as TR, or the module row id)',
      security,
      params: clientParams.extend({ moduleId: moduleIdParam }),
      body: moduleUpdateSchema,
      response: { 200: clientModuleSchema, ...errors },
    },
    handler: async (request) =>
      setModule(
        ctx,
        onClient(requireActor(request)),
        request.params.moduleId,
        request.body.enabled,
      ),
  });
}
