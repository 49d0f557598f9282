import type {
  ComplianceListResponse,
  SecurityPolicy,
  SecurityPolicyUpdate,
} from '@portolan/contract';
import { COMPLIANCE_PAGE_SIZE } from '@portolan/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

const enc = encodeURIComponent;

/** The policy and its compliance list: a change of the policy changes who complies. */
const securityPolicyKey = (orgId: string) => ['organizations', orgId, 'security-policy'] as const;

/** GET /v1/organizations/{orgId}/security-policy/ (OWNER): what the organization requires. */
export function securityPolicyQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: securityPolicyKey(orgId),
    queryFn: ({ signal }) =>
      api.get<SecurityPolicy>(`/v1/organizations/${enc(orgId)}/security-policy/`, { signal }),
  });
}

/**
 * PUT …/security-policy/ {require_mfa, grace_days} (OWNER, with a step-up): 409 MFA_NOT_ENABLED
 * while the OWNER's own account would not meet it.
 */
export function useUpdateSecurityPolicy(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecurityPolicyUpdate) =>
      api.put<SecurityPolicy>(`/v1/organizations/${enc(orgId)}/security-policy/`, body, {
        loadingMessage: 'Saving the security policy…',
      }),
    onSuccess: (policy) => {
      queryClient.setQueryData(securityPolicyKey(orgId), policy);
      return queryClient.invalidateQueries({
        queryKey: [...securityPolicyKey(orgId), 'compliance'],
      });
    },
  });
}

export interface ComplianceFilters {
  page: number;
  /** Only the members who do not meet the policy. */
  notCompliantOnly: boolean;
}

/**
 * GET …/security-policy/compliance/?page&limit&compliant (OWNER): the members with their second
 * factors, those who do not meet the policy first, and how many do not over all pages.
 */
export function complianceQueryOptions(orgId: string, filters: ComplianceFilters) {
  return queryOptions({
    queryKey: [...securityPolicyKey(orgId), 'compliance', filters],
    queryFn: ({ signal }) =>
      api.get<ComplianceListResponse>(
        `/v1/organizations/${enc(orgId)}/security-policy/compliance/`,
        {
          signal,
          query: {
            page: filters.page,
            limit: COMPLIANCE_PAGE_SIZE,
            compliant: filters.notCompliantOnly ? 'false' : undefined,
          },
        },
      ),
    placeholderData: keepPreviousData,
  });
}
