// Helpers for the billing specs: the billing pages' addresses, the sandbox gateway's hosted card
// page (plain HTML served by the API, fields by their labels), and the subscription as the API
// reports it.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { clientAddress } from './accounts.ts';
import { authOf, type Scene } from './scenes.ts';

/** The sandbox's test cards (README "Billing"). */
export const CARDS = {
  ok: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
} as const;

/** The expiry typed on the hosted page, and how the Cards page then names the card. */
export const EXPIRY = '12/30';
export const VISA_4242 = 'Visa ending in 4242, expires 12/2030';

export type BillingPage = 'subscription' | 'dashboard' | 'plans' | 'cards';

export const billingUrl = (orgId: string, page: BillingPage) =>
  `/ps/organization-settings/${orgId}/billing/${page}`;

/** The hosted page's path (apps/api/src/lib/payments/sandbox.ts SANDBOX_CHECKOUT_PATH). */
export const HOSTED_PAGE = /\/v1\/billing\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}\/$/;

/** On the sandbox's hosted page: type a card, its expiry, CVC and name, and pay. */
export async function payOnHostedPage(page: Page, number: string) {
  await expect(page).toHaveURL(HOSTED_PAGE);
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill(EXPIRY);
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel('Name on card').fill('Olivia Owner');
  await page.getByRole('button', { name: /^Pay / }).click();
}

interface SubscriptionEntry {
  organization: { id: string };
  subscription: {
    status: string;
    plan: { type: string };
    cancel_at_period_end: boolean;
    expired_in: string | null;
  } | null;
}

/** The organization's subscription as GET /v1/me/organizations/and/subscriptions/transit/ says. */
export async function subscriptionOf(request: APIRequestContext, scene: Scene) {
  const res = await request.get('/v1/me/organizations/and/subscriptions/transit/', {
    headers: authOf(scene),
  });
  expect(res.ok(), await res.text()).toBe(true);
  const { results } = (await res.json()) as { results: SubscriptionEntry[] };
  const entry = results.find((e) => e.organization.id === scene.orgId);
  expect(entry, `the organization ${scene.orgId} is listed`).toBeTruthy();
  return entry!.subscription;
}

/** POST a workspace through the API; the response, to check. */
export function createWorkspace(request: APIRequestContext, scene: Scene, name: string) {
  return request.post(`/v1/organizations/${scene.orgId}/clients/`, {
    headers: authOf(scene),
    data: { name },
  });
}

/** A bearer token for a known account, through the API's login. */
export async function apiToken(
  request: APIRequestContext,
  user: { email: string; password: string },
): Promise<string> {
  const login = await request.post('/v1/rest-auth/app/login/', {
    headers: { 'X-Forwarded-For': clientAddress() },
    data: { email: user.email, password: user.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return ((await login.json()) as { token: string }).token;
}

/**
 * Subscribes the scene's organization to a plan through the API and the sandbox's hosted page
 * (the form posted as a browser would, with the card that succeeds): for journeys that need more
 * than the trial's limits.
 */
export async function subscribeThroughApi(
  request: APIRequestContext,
  scene: Scene,
  plan: 'STANDARD' | 'PROFESSIONAL' | 'BUSINESS',
) {
  const checkout = await request.post(`/v1/organizations/${scene.orgId}/checkout/`, {
    headers: { ...authOf(scene), 'Idempotency-Key': crypto.randomUUID() },
    data: { plan },
  });
  expect(checkout.status(), await checkout.text()).toBe(201);
  const { url } = (await checkout.json()) as { url: string };
  const paid = await request.post(url, {
    form: { number: CARDS.ok, expiry: EXPIRY, cvc: '123', name: 'Olivia Owner', action: 'pay' },
    maxRedirects: 0,
  });
  expect(paid.status(), await paid.text()).toBe(303);
  expect((await subscriptionOf(request, scene))?.plan.type).toBe(plan);
}
