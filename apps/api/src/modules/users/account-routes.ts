import { errorBodySchema, userSchema, userUpdateSchema } from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireAuth } from '../auth/index.ts';
import { toUserDto } from './repo.ts';
import { updateUser } from './service.ts';

const tags = ['auth'];
const secured = [{ bearerAuth: [] }];

/** The signed-in user's own account: GET and PATCH /v1/rest-auth/user/. */
export async function accountRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/rest-auth/user/', {
    onRequest: app.authenticate,
    schema: {
      tags,
      summary: 'The signed-in user',
      security: secured,
      response: { 200: userSchema, 401: errorBodySchema },
    },
    handler: async (request) => toUserDto(requireAuth(request).user),
  });

  app.patch('/v1/rest-auth/user/', {
    onRequest: app.authenticate,
    schema: {
      tags,
      summary:
        'Change names, phone, avatar or workspace view (clientsViewOption) of the signed-in user (not the e-mail)',
      security: secured,
      body: userUpdateSchema,
      response: { 200: userSchema, 400: errorBodySchema, 401: errorBodySchema },
    },
    handler: async (request) => updateUser(ctx, requireAuth(request).user, request.body),
  });
}
