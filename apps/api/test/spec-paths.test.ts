import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Spec §7 writes most paths with a trailing slash and some without (`/v1/plans/{type}`,
 * `…/suggestion?key=`): every path it writes answers in both forms (the router ignores a
 * trailing slash; the OpenAPI document lists one form). A path no route matches answers the JSON
 * 404 "No route …"; anything else (401, 400, 200, a 404 about a missing record) means it matched.
 * Anonymous requests with empty bodies: nothing is changed, every route is reached.
 */

const id = crypto.randomUUID();
const [orgId, clientId, userId] = [id, id, id];
const org = `/v1/organizations/${orgId}`;

/** [method, path as spec §7 writes it, ids filled]. */
const SPEC_PATHS: [string, string][] = [
  // Auth
  ['POST', '/v1/rest-auth/login/'],
  ['POST', '/v1/rest-auth/app/login/'],
  ['POST', '/v1/rest-auth/logout/'],
  ['POST', '/v1/rest-auth/app/jwt-refresh/'],
  ['POST', '/v1/rest-auth/registration/'],
  ['PATCH', '/v1/rest-auth/registration/activation/'],
  ['GET', '/v1/rest-auth/registration/activation/resend-code/'],
  ['POST', '/v1/rest-auth/password/reset/'],
  ['POST', '/v1/rest-auth/password/reset/identity/'],
  ['POST', '/v1/rest-auth/password/reset/confirm/'],
  ['POST', '/v1/rest-auth/password/change/'],
  ['GET', '/v1/rest-auth/user/'],
  ['PATCH', '/v1/rest-auth/user/'],
  ['POST', '/v1/social-auth/google/'],
  ['GET', '/v1/user/is-existed/?email=a%40example.com'],
  // User
  ['POST', '/v1/upload/'],
  ['GET', '/v1/user/clients/?limit=500'],
  ['GET', '/v1/user/clients/all-settings-data/?limit=250'],
  ['GET', '/v1/user/notification/?page=1&limit=10'],
  ['GET', '/v1/user/notification/new/'],
  ['PUT', `/v1/user/notification/${id}/is-seen/`],
  ['PUT', `/v1/user/notification/${id}/is-seen/decline/`],
  // Organizations
  ['GET', '/v1/organizations/'],
  ['POST', '/v1/organizations/'],
  ['GET', `${org}/`],
  ['PUT', `${org}/`],
  ['GET', '/v1/me/organizations/and/clients/'],
  ['GET', `${org}/activities/`],
  ['GET', `${org}/users/`],
  ['GET', `${org}/users/${userId}/`],
  ['DELETE', `${org}/users/${userId}/`],
  ['GET', `${org}/users/${userId}/client/`],
  ['POST', `${org}/users/${userId}/clients/grant_access/`],
  ['POST', `${org}/users/invitation/`],
  ['POST', `${org}/users/force-invitation/`],
  ['POST', `${org}/users/${userId}/resend-invitation/`],
  ['PUT', `${org}/users/${userId}/role/`],
  ['POST', `${org}/clients/${clientId}/approve/`],
  ['GET', `${org}/clients/`],
  ['POST', `${org}/clients/`],
  ['PUT', `${org}/clients/${clientId}/`],
  ['DELETE', `${org}/clients/${clientId}/`],
  ['GET', `${org}/clients/${clientId}/apps/TR/`],
  ['POST', `${org}/clients/${clientId}/apps/TR/`],
  ['POST', '/v1/organizations/users/invitation/accept/'],
  // Clients
  ['POST', '/v1/clients/'],
  ['GET', `/v1/clients/${clientId}/`],
  ['PATCH', `/v1/clients/${clientId}/`],
  ['GET', `/v1/clients/${clientId}/users/`],
  ['GET', `/v1/clients/${clientId}/users/${userId}/settings/`],
  ['POST', `/v1/clients/${clientId}/users/invitation/`],
  ['POST', `/v1/clients/${clientId}/users/force-invitation/`],
  ['GET', `/v1/clients/${clientId}/users/invitation/suggestion?key=a`],
  ['GET', `/v1/clients/${clientId}/users/${userId}/permissions/`],
  ['PUT', `/v1/clients/${clientId}/users/${userId}/permissions/TR/shipments/`],
  ['PUT', `/v1/clients/${clientId}/users/${userId}/roles/`],
  ['DELETE', `/v1/clients/${clientId}/users/${userId}/`],
  ['GET', `/v1/clients/${clientId}/modules/`],
  ['PATCH', `/v1/clients/${clientId}/modules/${id}/`],
  ['POST', '/v1/clients/users/invitation/accept/'],
  // Billing
  ['GET', '/v1/plans/transit'],
  ['GET', '/v1/plans/balance/config/transit?page=1&limit=99'],
  ['GET', '/v1/plans/service/config/transit'],
  ['GET', '/v1/me/organizations/and/subscriptions/transit'],
  ['POST', `${org}/checkout/`],
  ['POST', `${org}/balance/checkout/`],
  ['GET', `${org}/unsubscription/`],
  ['POST', `${org}/grade-changes/checkout/`],
  ['POST', `${org}/grade-changes/preview/`],
  ['GET', `${org}/invoices/?limit=10&page=1`],
  ['GET', '/v1/fund-packages/?limit=10&page=1'],
  ['GET', `${org}/balance/`],
  ['GET', `${org}/balance/history?page=1&limit=10`],
  ['GET', `${org}/payment-methods/`],
  ['POST', `${org}/payment-methods/checkout/`],
  ['POST', `${org}/payment-methods/modification/`],
  ['DELETE', `${org}/payment-methods/modification/`],
];

/** The other form of a path: its trailing slash taken off, or added (before the query). */
function otherForm(url: string): string {
  const [path, query] = url.split('?') as [string, string | undefined];
  const other = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
  return query === undefined ? other : `${other}?${query}`;
}

describe('spec §7 paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers every path the specification writes, with and without the trailing slash', async () => {
    const unmatched: string[] = [];
    for (const [method, written] of SPEC_PATHS) {
      for (const url of [written, otherForm(written)]) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          ...(method !== 'GET' && method !== 'DELETE' && { payload: {} }),
        });
        if (res.statusCode === 404 && String(res.json().message).startsWith('No route'))
          unmatched.push(`${method} ${url}`);
      }
    }
    expect(unmatched).toEqual([]);
  });
});
