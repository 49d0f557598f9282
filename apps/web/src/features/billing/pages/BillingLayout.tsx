import { Center, Loader, Stack } from '@mantine/core';
import { can, type OrgRole } from '@portolan/contract';
import {
  IconAdjustmentsDollar,
  IconBuildingBank,
  IconCashPlus,
  IconChartBar,
  IconCreditCard,
  IconHistory,
  IconListDetails,
  IconReceipt,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation, useParams, useSearchParams } from 'react-router';
import { dashboardPath } from '../../../lib/auth-store';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { SettingsNav, type SettingsTab } from '../../../lib/settings-layout';
import { organizationQueryOptions } from '../../../lib/tenant-api';
import { useOrganizationSubscription } from '../api/subscriptions-api';
import { CheckoutOutcome } from '../components/CheckoutOutcome';
import { billingPath } from '../gate-rules';

/**
 * billing/: the billing pages' own tabs, the outcome of a hosted payment page the browser came
 * back from (`?checkout=`), and two guards: only an OWNER or ADMIN (spec §5, §6; others go to
 * their dashboard), and the plan guard (no subscription at all: only the plans page).
 */
export function BillingLayout() {
  const { orgId = '' } = useParams();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const org = useQuery(organizationQueryOptions(orgId));
  const { query, entry } = useOrganizationSubscription(orgId);
  const role = (org.data?.role?.key ?? null) as OrgRole | null;

  // The settings layout above says when the organization itself failed to load.
  if (org.isError) return null;
  if (org.isPending) return <Busy />;
  if (!can({ orgRole: role }, 'organization.billing')) {
    return <Navigate to={dashboardPath()} replace />;
  }
  if (query.isError) {
    return <QueryRetryAlert title="Your subscription could not be loaded" query={query} />;
  }
  if (query.isPending) return <Busy />;

  const subscribed = Boolean(entry?.subscription);
  const onPlans = pathname.replace(/\/$/, '').endsWith('/billing/plans');
  // Back from a payment page, the outcome is read before the page may move on.
  if (!subscribed && !onPlans && !params.has('checkout')) {
    return <Navigate to={billingPath(orgId, 'plans')} replace />;
  }

  const tab = (page: string, label: string, icon: SettingsTab['icon']) => ({
    to: billingPath(orgId, page),
    label,
    icon,
  });
  const tabs: SettingsTab[] = subscribed
    ? [
        tab('subscription', 'Subscription', IconReceipt),
        tab('dashboard', 'Usage', IconChartBar),
        tab('plans', 'Plans', IconListDetails),
        tab('cards', 'Cards', IconCreditCard),
        tab('history', 'History', IconHistory),
        tab('fund-packages', 'Add funds', IconCashPlus),
        tab('wallet', 'Wallet settings', IconAdjustmentsDollar),
        tab('details', 'Billing details', IconBuildingBank),
      ]
    : [tab('plans', 'Plans', IconListDetails)];

  return (
    <Stack gap="md">
      <SettingsNav label="Billing" tabs={tabs} />
      <CheckoutOutcome orgId={orgId} />
      <Outlet />
    </Stack>
  );
}

function Busy() {
  return (
    <Center py="xl" role="status" aria-label="Loading billing">
      <Loader size="sm" />
    </Center>
  );
}
