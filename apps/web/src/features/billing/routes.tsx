import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

/**
 * billing/ under ps/organization-settings/:orgId (app/router.tsx hands it to the organization
 * settings as an extra child, so it sits inside their layout and tabs): subscription (the index),
 * dashboard, plans, cards, history (invoices, credit notes and balance movements), wallet (auto
 * top-up, spend caps, low-balance alerts), details (billing details) and fund packages (add funds).
 */
export function billingRoutes(lazyPage: LazyPage): RouteObject[] {
  return [
    {
      path: 'billing',
      handle: handle({ crumb: 'Billing' }),
      lazy: lazyPage(() => import('./pages/BillingLayout').then((m) => m.BillingLayout)),
      children: [
        { index: true, element: <Navigate to="subscription" replace /> },
        {
          path: 'subscription',
          handle: handle({
            title: 'Billing Subscription',
            crumb: 'Subscription',
            name: 'ps-BillingSubscription',
          }),
          lazy: lazyPage(() => import('./pages/SubscriptionPage').then((m) => m.SubscriptionPage)),
        },
        {
          path: 'dashboard',
          handle: handle({
            title: 'Billing Dashboard',
            crumb: 'Usage',
            name: 'ps-BillingDashboard',
          }),
          lazy: lazyPage(() =>
            import('./pages/BillingDashboardPage').then((m) => m.BillingDashboardPage),
          ),
        },
        {
          path: 'plans',
          handle: handle({ title: 'Billing Plans', crumb: 'Plans', name: 'ps-BillingPlans' }),
          lazy: lazyPage(() => import('./pages/PlansPage').then((m) => m.PlansPage)),
        },
        {
          path: 'cards',
          handle: handle({
            title: 'Billing Card Management',
            crumb: 'Cards',
            name: 'ps-BillingCardManagement',
          }),
          lazy: lazyPage(() => import('./pages/CardsPage').then((m) => m.CardsPage)),
        },
        {
          path: 'history',
          handle: handle({
            title: 'Billing History',
            crumb: 'History',
            name: 'ps-BillingHistory',
          }),
          lazy: lazyPage(() => import('./pages/HistoryPage').then((m) => m.HistoryPage)),
        },
        {
          path: 'wallet',
          handle: handle({
            title: 'Billing Wallet Settings',
            crumb: 'Wallet settings',
            name: 'ps-BillingWallet',
          }),
          lazy: lazyPage(() =>
            import('./pages/WalletSettingsPage').then((m) => m.WalletSettingsPage),
          ),
        },
        {
          path: 'details',
          handle: handle({
            title: 'Billing Details',
            crumb: 'Billing details',
            name: 'ps-BillingDetails',
          }),
          lazy: lazyPage(() =>
            import('./pages/BillingDetailsPage').then((m) => m.BillingDetailsPage),
          ),
        },
        {
          path: 'fund-packages',
          handle: handle({
            title: 'Billing Add Funds',
            crumb: 'Add funds',
            name: 'ps-BillingAddFunds',
          }),
          lazy: lazyPage(() => import('./pages/AddFundsPage').then((m) => m.AddFundsPage)),
        },
      ],
    },
  ];
}

/**
 * The subscription gate as a pathless route around the signed-in pages: app/router.tsx wraps
 * them in it. Its code loads with the first such page, never with the entry.
 */
export function subscriptionGateRoute(lazyPage: LazyPage, children: RouteObject[]): RouteObject {
  return {
    lazy: lazyPage(() => import('./gate').then((m) => m.SubscriptionGate)),
    children,
  };
}
