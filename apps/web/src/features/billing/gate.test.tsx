import { Messages } from '@portolan/contract';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ada, apiError, json, mockApi, publicConfig, type Reply } from '../../test/api-mock';
import { renderApp, signIn } from '../../test/render-app';
import { ORG_ID, organization } from '../../test/tenant-fixtures';
import { useAuthStore } from '../../lib/auth-store';
import { useBillingStore } from '../../lib/billing-store';
import {
  BALANCE,
  balance,
  BILLING,
  entry,
  ORG,
  PLANS,
  planPage,
  plans,
  SUBS,
  subscription,
  subsPage,
} from './test-fixtures';

const DETAIL = `/ps/organization-settings/${ORG_ID}/detail`;
const expired = subscription({
  status: 'EXPIRED',
  is_active: false,
  expired_in: '2020-01-01T00:00:00.000Z',
});

function gateApi(
  role: 'OWNER' | 'STAFF',
  billing = true,
  subs: Reply | Reply[] = json(subsPage(entry(expired, role))),
) {
  return mockApi({
    'GET /v1/config': json({ ...publicConfig, features: { ...publicConfig.features, billing } }),
    'GET /v1/rest-auth/user/': json(ada),
    [ORG]: json(organization(role)),
    [SUBS]: subs,
    [`GET /v1/organizations/${ORG_ID}/clients/`]: json(subsPage()),
  });
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('subscription gate', () => {
  beforeEach(() => {
    useBillingStore.getState().reset();
    // The clock moves on its own too, so Testing Library's waiting still works.
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => vi.useRealTimers());

  it('an OWNER of an organization without an active subscription goes to its billing page', async () => {
    const mock = gateApi('OWNER');
    signIn();
    const app = renderApp(DETAIL);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Demo Shipping Co.' }),
    ).toBeVisible();
    expect(mock.callsTo(SUBS)).toHaveLength(0);
    await advance(3_000);
    await waitFor(() => expect(app.location()).toBe(`${BILLING}/subscription`));
    expect(await screen.findByText('Expired')).toBeVisible();
  });

  it('STAFF get the billing-expired toast, word for word, and the dashboard ?status=expired', async () => {
    gateApi('STAFF');
    signIn();
    const app = renderApp(DETAIL);
    await advance(3_000);
    await waitFor(() => expect(app.location()).toBe('/ps/dashboard?status=expired'));
    expect(await screen.findByText(Messages.billingExpired)).toBeVisible();
  });

  it('with billing off every route is exempt: no subscription call, no redirect', async () => {
    const mock = gateApi('OWNER', false);
    signIn();
    const app = renderApp(DETAIL);
    await screen.findByRole('heading', { level: 1, name: 'Demo Shipping Co.' });
    await advance(70_000);
    expect(mock.callsTo(SUBS)).toHaveLength(0);
    expect(app.location()).toBe(DETAIL);
    expect(screen.queryByRole('link', { name: 'Billing' })).toBeNull();
  });

  it('the store: 3 s before the first call, a poll every 60 s, a failure stops it with a toast', async () => {
    const mock = gateApi('OWNER', true, [
      json(subsPage(entry(subscription()))),
      json(subsPage(entry(subscription()))),
      apiError(403, 'FORBIDDEN', 'No.'),
    ]);
    signIn();
    renderApp('/ps/profile');
    await screen.findByRole('heading', { level: 1, name: 'My Settings' });
    await advance(2_900);
    expect(mock.callsTo(SUBS)).toHaveLength(0);
    await advance(200);
    await waitFor(() => expect(mock.callsTo(SUBS)).toHaveLength(1));
    expect(mock.callsTo(SUBS)[0]?.url).toContain('page=1');
    expect(mock.callsTo(SUBS)[0]?.url).toContain('limit=99');
    await waitFor(() => expect(useBillingStore.getState().subscriptionsChecked).toBe(true));

    await advance(60_000);
    await waitFor(() => expect(mock.callsTo(SUBS)).toHaveLength(2));
    await advance(60_000);
    await waitFor(() => expect(mock.callsTo(SUBS)).toHaveLength(3));
    expect(await screen.findByText(Messages.subscriptionsFailed)).toBeVisible();
    expect(useBillingStore.getState().pollingStopped).toBe(true);

    await advance(180_000);
    expect(mock.callsTo(SUBS)).toHaveLength(3);
  });

  it('the store: the balance and the plan configs are fetched after 3 s and kept with their loading flags', async () => {
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      'GET /v1/rest-auth/user/': json(ada),
      [ORG]: json(organization('OWNER')),
      [SUBS]: json(subsPage(entry(subscription()))),
      [BALANCE]: json(balance(4200)),
      [PLANS]: json(planPage()),
    });
    signIn();
    // The current organization, whose OWNER may read its balance.
    useAuthStore.setState((s) => ({ org: { ...s.org, current: { id: ORG_ID, role: 'OWNER' } } }));
    renderApp('/ps/profile');
    await screen.findByRole('heading', { level: 1, name: 'My Settings' });
    await advance(2_900);
    expect(mock.callsTo(BALANCE)).toHaveLength(0);
    expect(mock.callsTo(PLANS)).toHaveLength(0);
    expect(useBillingStore.getState()).toMatchObject({ balance: null, planConfigs: [] });
    await advance(200);
    await waitFor(() => expect(useBillingStore.getState().balance).toBe(4200));
    await waitFor(() =>
      expect(useBillingStore.getState().planConfigs.map((p) => p.type)).toEqual(
        [...plans].sort((a, b) => a.order - b.order).map((p) => p.type),
      ),
    );
    expect(useBillingStore.getState()).toMatchObject({
      balanceLoading: false,
      planConfigsLoading: false,
    });
    expect(mock.callsTo(BALANCE)).toHaveLength(1);
    expect(mock.callsTo(PLANS)[0]?.url).toContain('limit=99');
  });

  it('keeps only the four plan types from /register?plan=', () => {
    const { setRegisterPlan } = useBillingStore.getState();
    setRegisterPlan('BUSINESS');
    expect(useBillingStore.getState().registerPlan).toBe('BUSINESS');
    setRegisterPlan('GOLD');
    expect(useBillingStore.getState().registerPlan).toBeNull();
  });
});
