import { errorBodySchema } from '@portolan/contract';

/** What every route of this module declares alike. */
export const tags = ['permissions'];
export const security = [{ bearerAuth: [] }];
/** The errors every tenant route may answer. */
export const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
/** Name clashes and deletions of what is in use. */
export const conflicts = { 409: errorBodySchema };
