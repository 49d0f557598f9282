import { errorBodySchema } from '@portolan/contract';

/**
 * What the billing module's route files declare alike: the OpenAPI tag and security, the access
 * rule of the billing pages (OWNERs and ADMINs of the organization in the path), and the error
 * answers every tenant route may give.
 */
export const tags = ['billing'];
export const security = [{ bearerAuth: [] }];
export const billing = { organization: 'orgId', permission: 'organization.billing' } as const;
export const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
