import {
  allSettingsPageSchema,
  allSettingsQuerySchema,
  errorBodySchema,
  myOrganizationsPageSchema,
  myOrganizationsQuerySchema,
  userClientSettingsParamsSchema,
  userClientSettingsSchema,
  userClientsPageSchema,
  userClientsQuerySchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { ChangeCache } from '../../lib/change-cache.ts';
import { requireActor, requireAuth } from '../access/index.ts';
import {
  getUserClientSettings,
  listAllSettings,
  listMyOrganizationsAndClients,
  listUserClients,
} from './me-service.ts';

const security = [{ bearerAuth: [] }];

/** What the organization list is made of: a change to any of them drops the kept pages. */
const TENANCY_TABLES = [
  'organizations',
  'clients',
  'client_modules',
  'organization_members',
  'client_members',
] as const;
const listErrors = { 400: errorBodySchema, 401: errorBodySchema };

/**
 * The caller's own view of organizations and workspaces: GET /v1/me/organizations/and/clients/,
 * GET /v1/user/clients/, GET /v1/user/clients/all-settings-data/ and
 * GET /v1/clients/{id}/users/{userId}/settings/.
 */
export async function meRoutes(app: App): Promise<void> {
  const { ctx } = app;

  // The organization list is read on every page load of every tab, and changes seldom: each
  // page of it is kept as the JSON answered, until any organization, workspace, module or
  // membership changes anywhere (migration 0011's triggers; lib/change-cache.ts).
  const myOrganizationPages = new ChangeCache<Buffer>(ctx.database, {
    channel: 'portolan_tenancy',
    tables: TENANCY_TABLES,
    keyOf: () => null,
    maxEntries: 20_000,
    maxBytes: 32 * 1024 * 1024,
  });
  myOrganizationPages.start();
  app.addHook('onClose', async () => myOrganizationPages.stop());

  app.get('/v1/me/organizations/and/clients/', {
    config: { access: { signedIn: 'the caller’s own organizations and workspaces' } },
    schema: {
      tags: ['organizations'],
      summary:
        'The caller’s organizations (by name) with the workspaces they see in each (page 1, 250 by default)',
      security,
      querystring: myOrganizationsQuerySchema,
      response: { 200: myOrganizationsPageSchema, ...listErrors },
    },
    handler: async (request, reply) => {
      const caller = requireAuth(request);
      const { page, limit } = request.query;
      const answer = await myOrganizationPages.get(
        `${caller.userId}|${page}|${limit}`,
        async () =>
          Buffer.from(
            reply.serialize(
              await listMyOrganizationsAndClients(ctx, caller, request.query),
            ) as string,
          ),
        (bytes) => bytes.length,
      );
      // Bytes are sent as they are: the route's serializer made them once, above.
      return reply.type('application/json; charset=utf-8').send(answer as never);
    },
  });

  app.get('/v1/user/clients/', {
    config: { access: { signedIn: 'the caller’s own organizations and workspaces' } },
    schema: {
      tags: ['user'],
      summary: 'The caller’s workspaces, flat (500 by default)',
      security,
      querystring: userClientsQuerySchema,
      response: { 200: userClientsPageSchema, ...listErrors },
    },
    handler: async (request) => listUserClients(ctx, requireAuth(request), request.query),
  });

  app.get('/v1/user/clients/all-settings-data/', {
    config: { access: { signedIn: 'the caller’s own organizations and workspaces' } },
    schema: {
      tags: ['user'],
      summary:
        'The caller’s workspaces whose data changed at or after `timestamp` (ISO 8601 or epoch ms; all without it); send the answer’s timestamp next time',
      security,
      querystring: allSettingsQuerySchema,
      response: { 200: allSettingsPageSchema, ...listErrors },
    },
    handler: async (request) => listAllSettings(ctx, requireAuth(request), request.query),
  });

  app.get('/v1/clients/:id/users/:userId/settings/', {
    config: { access: { client: 'id', permission: 'client.read' } },
    schema: {
      tags: ['clients'],
      summary:
        'A member’s role in the workspace, its modules and name (one’s own; others’ for OWNER, ADMIN, MANAGER)',
      security,
      params: userClientSettingsParamsSchema,
      response: {
        200: userClientSettingsSchema,
        ...listErrors,
        403: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request) =>
      getUserClientSettings(ctx, requireActor(request), request.params.userId),
  });
}
