import { ErrorCode, meetsMfaPolicy } from '@portolan/contract';
import { days } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { Factors, OrganizationRow } from './repo.ts';

/** From when an organization's MFA policy refuses members without a qualifying factor; null: off. */
export function mfaEnforcedFrom(organization: OrganizationRow): Date | null {
  if (organization.mfa_policy === 'off' || organization.mfa_policy_since === null) return null;
  return new Date(organization.mfa_policy_since.getTime() + days(organization.mfa_grace_days));
}

/**
 * The organization's MFA policy (issue 20 item 5), decided by the kernel for every route of the
 * organization and its workspaces, from what the standing query read (the policy with the
 * organization's row, the caller's factors beside it): no query of its own, and a change of the
 * policy holds on the next request of every instance. Past the grace, 403 MFA_REQUIRED.
 */
export function requireMfaPolicy(
  standing: { organization: OrganizationRow; factors: Factors },
  now: Date,
): void {
  const { organization, factors } = standing;
  const from = mfaEnforcedFrom(organization);
  if (!from || now.getTime() < from.getTime()) return;
  if (meetsMfaPolicy(organization.mfa_policy, factors)) return;
  const what =
    organization.mfa_policy === 'phishing_resistant' ? 'a passkey' : 'two-step verification';
  throw new AppError(
    ErrorCode.MFA_REQUIRED,
    `${organization.name} requires ${what} for every member. Set it up under My Settings → Security to continue.`,
    { organization_id: organization.id, require_mfa: organization.mfa_policy },
  );
}
