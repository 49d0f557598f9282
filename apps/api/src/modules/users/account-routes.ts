import {
  errorBodySchema,
  isEmailInDomains,
  userSchema,
  userUpdateSchema,
  type User,
} from '@portolan/contract';
import type { App, AppContext } from '../../context.ts';
import { requireAuth } from '../access/index.ts';
import { toUserDto, type UserFromConfig } from './repo.ts';
import { updateUser } from './service.ts';

const tags = ['auth'];
const secured = [{ bearerAuth: [] }];

/**
 * The user as answered: the row's fields and what the e-mail domain means under this
 * configuration (spec §1 custom shipment template, §6 internal staff). The domain lists stay here.
 */
function userInfo(ctx: AppContext, dto: Omit<User, UserFromConfig>): User {
  return {
    ...dto,
    custom_shipment_template: isEmailInDomains(dto.email, ctx.config.customTemplateEmailDomains),
    is_internal: isEmailInDomains(dto.email, ctx.config.internalEmailDomains),
  };
}

/** The signed-in user's own account: GET and PATCH /v1/rest-auth/user/. */
export async function accountRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/rest-auth/user/', {
    config: { access: { signedIn: 'the caller’s own account' } },
    schema: {
      tags,
      summary: 'The signed-in user',
      security: secured,
      response: { 200: userSchema, 401: errorBodySchema },
    },
    handler: async (request) => userInfo(ctx, toUserDto(requireAuth(request).user)),
  });

  app.patch('/v1/rest-auth/user/', {
    config: { access: { signedIn: 'the caller’s own account' } },
    schema: {
      tags,
      summary:
        'Change names, phone, avatar or workspace view (clientsViewOption) of the signed-in user (not the e-mail)',
      security: secured,
      body: userUpdateSchema,
      response: { 200: userSchema, 400: errorBodySchema, 401: errorBodySchema },
    },
    handler: async (request) =>
      userInfo(ctx, await updateUser(ctx, requireAuth(request).user, request.body)),
  });
}
