import { Messages } from '@portolan/contract';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { dashboardPath, useAuthStore } from '../../lib/auth-store';
import { usePublicConfig } from '../../lib/config';
import { findWorkspace, moduleOfPath } from '../../lib/tenancy';
import { toast } from '../../lib/toasts';
import { gateDecision } from './gate-rules';
import { useBillingBackground, useSubscriptionPolling } from './polling';

/** The organization a page is about: its `orgId`, else its workspace's, else none. */
function useRouteOrganization(pathname: string): string | null {
  const params = useMatches().at(-1)?.params ?? {};
  const list = useAuthStore((s) => s.org.list);
  const current = useAuthStore((s) => s.org.current?.id ?? null);
  if (params.orgId) return params.orgId;
  // Workspace pages name their workspace under one of these (ps/client-settings/:id, …).
  const clientId = params.client_id ?? params.id ?? params.currentClientId ?? params.clientId;
  if (clientId) return findWorkspace(clientId, list)?.entry.organization.id ?? null;
  return moduleOfPath(pathname) ? current : null;
}

/**
 * The subscription gate (spec §4, §6), a pathless route around the signed-in pages (inside the
 * workspace guard, so the organization is a known one). With billing on, it polls the
 * subscriptions; on a page about an organization without an active subscription, an OWNER or
 * ADMIN goes to its billing subscription page, anyone else gets the billing-expired toast and the
 * dashboard with `?status=expired`.
 */
export function SubscriptionGate() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const config = usePublicConfig();
  const billingOn = config.data?.features.billing === true;
  const orgId = useRouteOrganization(pathname);
  const subscriptions = useSubscriptionPolling(billingOn);
  useBillingBackground(
    billingOn,
    useAuthStore((s) => s.org.current),
  );
  const decision = gateDecision({
    billingOn,
    pathname,
    orgId,
    entries: subscriptions.data?.results,
  });

  const expired = decision.kind === 'expired';
  useEffect(() => {
    if (!expired) return;
    toast.error(Messages.billingExpired);
    void navigate(`${dashboardPath()}?status=expired`, { replace: true });
  }, [expired, navigate]);

  if (decision.kind === 'billing') return <Navigate to={decision.to} replace />;
  if (expired) return null;
  return <Outlet />;
}
