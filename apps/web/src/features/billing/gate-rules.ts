import {
  can,
  isSubscriptionActive,
  type OrganizationSubscription,
  type OrgRole,
} from '@portolan/contract';

/** The billing pages of one organization. */
export const billingPath = (orgId: string, page = 'subscription') =>
  `/ps/organization-settings/${encodeURIComponent(orgId)}/billing/${page}`;

/**
 * Pages the subscription gate never stops (spec §4): the billing pages themselves (where the
 * subscription is put right), the dashboards (where the expired are sent), the profile and
 * organization creation. Public pages are outside the signed-in container the gate guards.
 */
const EXEMPT = [
  /^\/ps\/organization-settings\/[^/]+\/billing(?:\/|$)/,
  /^\/ps\/(?:[^/]+\/)?dashboard\/?$/,
  /^\/ps\/profile(?:\/|$)/,
  /^\/ps\/organizations\/create\/?$/,
];

export const isExemptPath = (pathname: string) => EXEMPT.some((re) => re.test(pathname));

export type GateDecision =
  | { kind: 'pass' }
  /** An OWNER or ADMIN: to the billing subscription page, to put it right. */
  | { kind: 'billing'; to: string }
  /** Anyone else: the billing-expired toast and the dashboard with ?status=expired. */
  | { kind: 'expired' };

export interface GateInput {
  /** `features.billing` of the public config: off, every route is exempt. */
  billingOn: boolean;
  pathname: string;
  /** The organization the page is about; null for a page about none. */
  orgId: string | null;
  /** The subscription list; undefined until first read (the gate then lets the page be). */
  entries: readonly OrganizationSubscription[] | undefined;
  now?: Date;
}

/** Spec §4 subscription gate and §6 (the billing redirect for OWNER and ADMIN only). */
export function gateDecision({
  billingOn,
  pathname,
  orgId,
  entries,
  now,
}: GateInput): GateDecision {
  if (!billingOn || !orgId || !entries || isExemptPath(pathname)) return { kind: 'pass' };
  const entry = entries.find((e) => e.organization.id === orgId);
  // Not listed (yet): the server refuses what the subscription does not allow anyway.
  if (!entry || isSubscriptionActive(entry.subscription, now)) return { kind: 'pass' };
  const role = entry.organization.role.key as OrgRole;
  return can({ orgRole: role }, 'organization.billing')
    ? { kind: 'billing', to: billingPath(orgId) }
    : { kind: 'expired' };
}
