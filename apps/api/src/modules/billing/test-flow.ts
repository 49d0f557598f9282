import { expect } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import type { Person } from '../../../test/support/tenants.ts';
import { createOrganization } from '../../seed/factories.ts';

/** Helpers of the billing tests: an organization without a subscription, and paying through HTTP. */

let keys = 0;
// No timestamps in keys: the card number scan would read 13 digits as a possible number.
export const newKey = () => `key-${crypto.randomUUID()}-${keys++}`;

export async function unsubscribedOrganization(t: TestApp, owner: Person): Promise<string> {
  return (await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null })).id;
}

export async function postCheckout(
  t: TestApp,
  who: Person,
  orgId: string,
  plan: string,
  /** null: no header at all. */
  key: string | null = newKey(),
) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/organizations/${orgId}/checkout/`,
    headers: {
      authorization: `Bearer ${who.token}`,
      ...(key !== null && { 'idempotency-key': key }),
    },
    payload: { plan },
  });
}

export const cardForm = (number: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    number,
    expiry: '12/39',
    cvc: '123',
    name: 'Olive Owner',
    action: 'pay',
    ...extra,
  }).toString();

/** Posts the sandbox page's form, as a browser would. */
export function submitCard(t: TestApp, url: string, form: string) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form,
  });
}

/** Opens a checkout and pays it with `number` through the hosted page. */
export async function payWith(
  t: TestApp,
  who: Person,
  orgId: string,
  number: string,
  plan = 'PROFESSIONAL',
) {
  const opened = await postCheckout(t, who, orgId, plan);
  expect(opened.statusCode).toBe(201);
  const checkout = opened.json() as { id: string; url: string };
  const page = await t.app.inject({ method: 'GET', url: checkout.url });
  expect(page.statusCode).toBe(200);
  const paid = await submitCard(t, checkout.url, cardForm(number));
  return { checkout, paid };
}
