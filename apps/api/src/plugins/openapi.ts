import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_VERSION, BRAND } from '@portolan/contract';
import { declaredScope } from '../modules/access/index.ts';

/** OpenAPI generated from the routes' zod schemas: the UI at /docs, the document at /docs/json. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${BRAND} API`,
        version: APP_VERSION,
        description: 'The HTTP API of the Portolan portal. Errors are {code, message, details?}.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  // The UI's routes are the library's: declared here, where it is registered.
  await app.register(
    declaredScope({ public: 'the API document and its viewer are public' }, async (scope) => {
      await scope.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
    }),
  );
}
