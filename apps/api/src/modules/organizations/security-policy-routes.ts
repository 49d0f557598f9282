import {
  complianceListResponseSchema,
  complianceQuerySchema,
  errorBodySchema,
  orgParamsSchema,
  securityPolicySchema,
  securityPolicyUpdateSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { getSecurityPolicy, listCompliance, updateSecurityPolicy } from './security-policy.ts';

const tags = ['organizations'];
const security = [{ bearerAuth: [] }];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const owner = { organization: 'orgId', permission: 'organization.security.manage' } as const;

/** The organization's security policy (issue 20 item 5): OWNERs only. */
export async function securityPolicyRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/organizations/:orgId/security-policy/', {
    config: { access: owner },
    schema: {
      tags,
      summary: 'The organization’s security policy: the second factor it requires of its members',
      security,
      params: orgParamsSchema,
      response: { 200: securityPolicySchema, ...errors },
    },
    handler: async (request) => getSecurityPolicy(requireActor(request)),
  });

  app.put('/v1/organizations/:orgId/security-policy/', {
    config: { access: { ...owner, stepUp: true } },
    schema: {
      tags,
      summary:
        'Require a second factor (any, or phishing-resistant: a passkey) of every member after grace_days; the OWNER must meet it first (409 MFA_NOT_ENABLED)',
      security,
      params: orgParamsSchema,
      body: securityPolicyUpdateSchema,
      response: { 200: securityPolicySchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) => updateSecurityPolicy(ctx, requireActor(request), request.body),
  });

  app.get('/v1/organizations/:orgId/security-policy/compliance/', {
    config: { access: owner },
    schema: {
      tags,
      summary:
        'The members with their second factors and whether they meet the policy, those who do not first',
      security,
      params: orgParamsSchema,
      querystring: complianceQuerySchema,
      response: { 200: complianceListResponseSchema, ...errors },
    },
    handler: async (request) => listCompliance(ctx, requireActor(request), request.query),
  });
}
