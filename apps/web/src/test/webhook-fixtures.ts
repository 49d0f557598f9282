import type { WebhookDelivery, WebhookEndpoint } from '@portolan/contract';
import { json, mockApi } from './api-mock';
import { adaWithView, ORG_ID, organization } from './tenant-fixtures';

/** Endpoints and deliveries as the API answers them, for the webhooks pages' tests. */
export const BASE = `/ps/organization-settings/${ORG_ID}`;
export const HOOKS = `/v1/organizations/${ORG_ID}/webhooks/`;
export const SECRET = 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0cw==';

export function endpoint(fields: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    url: 'https://erp.example.com/hooks/portolan',
    description: 'ERP sync',
    events: ['member.added', 'member.removed'],
    enabled: true,
    disabled_reason: null,
    failing_since: null,
    previous_secret_until: null,
    created_at: '2026-03-02T10:00:00.000Z',
    modified_at: '2026-03-02T10:00:00.000Z',
    ...fields,
  };
}

export function delivery(fields: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
    event_id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
    event_type: 'member.added',
    status: 'succeeded',
    attempt_count: 1,
    next_attempt_at: null,
    created_at: '2026-03-03T09:00:00.000Z',
    completed_at: '2026-03-03T09:00:01.000Z',
    attempts: [
      {
        attempt: 1,
        attempted_at: '2026-03-03T09:00:00.500Z',
        status_code: 200,
        duration_ms: 84,
        response_excerpt: 'ok',
        error: null,
      },
    ],
    ...fields,
  };
}

/** The signed-in user, the organization with `role`, and the handlers of a test. */
export function mockHooks(
  role: 'OWNER' | 'ADMIN' | 'STAFF',
  handlers: Parameters<typeof mockApi>[0],
) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization(role)),
    ...handlers,
  });
}
