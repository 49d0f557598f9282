import { Alert, Badge, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { can, type SecurityPolicy } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '../../../lib/dates';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { useOrganization } from '../api/org-settings-api';
import { securityPolicyQueryOptions } from '../api/security-policy-api';
import { ComplianceList } from '../components/ComplianceList';
import { POLICY_LABELS, SecurityPolicyForm, stillAhead } from '../components/SecurityPolicyForm';

/** The policy in force, in a line: what, and since or from when members without it are refused. */
function InForce({ policy, now }: { policy: SecurityPolicy; now: Date }) {
  const from = policy.enforced_from;
  const when = !from
    ? null
    : stillAhead(from, now)
      ? `members without it are refused from ${formatDate(from)}`
      : `members without it are refused since ${formatDate(from)}`;
  return (
    <Group gap="xs">
      <Text size="sm">In force:</Text>
      <Badge variant="light" color={policy.require_mfa === 'off' ? 'gray' : 'teal'} c="dark.7">
        {POLICY_LABELS[policy.require_mfa]}
      </Badge>
      {when && <Text size="sm">{when}</Text>}
    </Group>
  );
}

/**
 * security (Security, for OWNERs: `organization.security.manage`): the second factor the
 * organization requires of its members, and who meets it.
 */
export function SecurityPage() {
  const { orgId, query: org, role } = useOrganization();
  const allowed = can({ orgRole: role }, 'organization.security.manage');
  const policy = useQuery({ ...securityPolicyQueryOptions(orgId), enabled: allowed });
  // "Now" for the dates said (from when members are refused): when the policy was read.
  const now = new Date(policy.dataUpdatedAt);

  if (org.data && !allowed) {
    return (
      <Alert color="orange" variant="light" title="Only owners manage the security policy">
        Ask an owner of {org.data.name} if members should use a second factor.
      </Alert>
    );
  }
  const orgName = org.data?.name ?? 'the organization';

  return (
    <Stack gap="xl">
      <Card padding="xl" component="section" aria-labelledby="org-security-title">
        <Stack gap={4} mb="lg">
          <Title order={2} fz="h3" id="org-security-title">
            Two-step verification for members
          </Title>
          <Text size="sm" c="dimmed">
            Require a second factor of everyone in {orgName}: someone who learns a member’s password
            still cannot get in.
          </Text>
        </Stack>
        {(org.isPending || policy.isPending) && !policy.isError && (
          <Stack gap="md" aria-busy="true" aria-label="Loading the security policy">
            <Skeleton height={24} width={240} />
            <Skeleton height={140} radius="sm" />
          </Stack>
        )}
        {policy.isError && (
          <QueryRetryAlert title="The security policy could not be loaded" query={policy} />
        )}
        {policy.data && (
          <Stack gap="lg">
            <InForce policy={policy.data} now={now} />
            <SecurityPolicyForm
              // Saved elsewhere meanwhile (another tab): the form starts again from it.
              key={`${policy.data.require_mfa}|${policy.data.grace_days}|${policy.data.since}`}
              orgId={orgId}
              orgName={orgName}
              policy={policy.data}
              now={now}
            />
          </Stack>
        )}
      </Card>
      {policy.data && <ComplianceList orgId={orgId} policy={policy.data.require_mfa} />}
    </Stack>
  );
}
