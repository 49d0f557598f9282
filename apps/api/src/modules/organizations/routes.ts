import {
  errorBodySchema,
  organizationCreateSchema,
  organizationListQuerySchema,
  organizationPageSchema,
  organizationParamsSchema,
  organizationSchema,
  organizationUpdateSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor, requireAuth } from '../access/index.ts';
import {
  createOrganization,
  getOrganization,
  listMyOrganizations,
  updateOrganization,
} from './service.ts';

const tags = ['organizations'];
const security = [{ bearerAuth: [] }];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/** GET/POST /v1/organizations/ and GET/PUT /v1/organizations/{id}/. */
export async function organizationRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/organizations/', {
    config: { access: { signedIn: 'the caller’s own organizations' } },
    schema: {
      tags,
      summary: 'The caller’s organizations (invitations pending included), by name',
      security,
      querystring: organizationListQuerySchema,
      response: { 200: organizationPageSchema, 400: errors[400], 401: errors[401] },
    },
    handler: async (request) => listMyOrganizations(ctx, requireAuth(request), request.query),
  });

  app.post('/v1/organizations/', {
    config: { access: { signedIn: 'creates a new organization; the caller becomes its OWNER' } },
    schema: {
      tags,
      summary:
        'Create an organization (needs can_create_client; with billing on, only a first one: 403 ORGANIZATION_LIMIT)',
      security,
      body: organizationCreateSchema,
      response: { 201: organizationSchema, 400: errors[400], 401: errors[401], 403: errors[403] },
    },
    handler: async (request, reply) => {
      const organization = await createOrganization(ctx, requireAuth(request), request.body);
      return reply.status(201).send(organization);
    },
  });

  app.get('/v1/organizations/:id/', {
    config: { access: { organization: 'id', permission: 'organization.read' } },
    schema: {
      tags,
      summary: 'One organization of the caller (any member)',
      security,
      params: organizationParamsSchema,
      response: { 200: organizationSchema, 400: errors[400], 401: errors[401], 404: errors[404] },
    },
    handler: async (request) => getOrganization(requireActor(request)),
  });

  app.put('/v1/organizations/:id/', {
    config: { access: { organization: 'id', permission: 'organization.update' } },
    schema: {
      tags,
      summary: 'Rename an organization or change its logo (OWNER, ADMIN)',
      security,
      params: organizationParamsSchema,
      body: organizationUpdateSchema,
      response: { 200: organizationSchema, ...errors },
    },
    handler: async (request) => updateOrganization(ctx, requireActor(request), request.body),
  });
}
