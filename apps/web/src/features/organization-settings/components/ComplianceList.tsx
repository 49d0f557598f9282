import { Badge, Card, Group, Stack, Switch, Table, Text, Title } from '@mantine/core';
import {
  COMPLIANCE_PAGE_SIZE,
  type ComplianceMember,
  type MfaPolicy,
  type Role,
} from '@portolan/contract';
import { IconShieldCheck, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { MemberIdentity, RoleBadge } from '../../../lib/member-parts';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { complianceQueryOptions } from '../api/security-policy-api';

const FACTOR_LABELS: Record<ComplianceMember['factors'][number], string> = {
  totp: 'Authenticator app',
  passkey: 'Passkey',
};

function Factors({ factors }: { factors: ComplianceMember['factors'] }) {
  if (factors.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Group gap={6}>
      {factors.map((factor) => (
        <Badge key={factor} variant="light" color="blue" c="dark.7" miw="max-content">
          {FACTOR_LABELS[factor]}
        </Badge>
      ))}
    </Group>
  );
}

function ComplianceBadge({ compliant }: { compliant: boolean }) {
  return compliant ? (
    <Badge variant="light" color="teal" c="dark.7" miw="max-content">
      Meets the policy
    </Badge>
  ) : (
    <Badge variant="outline" color="red" c="dark.7" miw="max-content">
      Not compliant
    </Badge>
  );
}

/**
 * The members with their second factors and, under a policy, whether they meet it (GET
 * …/security-policy/compliance/): those who do not first, a filter for them alone, pages.
 */
export function ComplianceList({ orgId, policy }: { orgId: string; policy: MfaPolicy }) {
  const [notCompliantOnly, setNotCompliantOnly] = useState(false);
  const [page, setPage] = useState(1);
  const enforced = policy !== 'off';
  const filtered = enforced && notCompliantOnly;
  const query = useQuery(complianceQueryOptions(orgId, { page, notCompliantOnly: filtered }));
  const data = query.data;
  const pages = data ? Math.ceil(data.count / COMPLIANCE_PAGE_SIZE) : 0;

  return (
    <Stack gap="md" component="section" aria-labelledby="org-compliance-title">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={2} fz="h3" id="org-compliance-title">
            Members’ second factors
          </Title>
          {enforced && data && (
            <Text size="sm" c="dimmed">
              {data.non_compliant === 0
                ? 'Every member meets the policy.'
                : `${data.non_compliant} ${data.non_compliant === 1 ? 'member does' : 'members do'} not meet the policy yet.`}
            </Text>
          )}
        </Stack>
        {enforced && (
          <Switch
            label="Not compliant only"
            checked={notCompliantOnly}
            onChange={(event) => {
              setNotCompliantOnly(event.currentTarget.checked);
              setPage(1);
            }}
          />
        )}
      </Group>

      {query.isPending && <ListSkeleton label="Loading the members’ second factors" />}

      {query.isError && <QueryRetryAlert title="The members could not be loaded" query={query} />}

      {data && data.results.length === 0 && (
        <EmptyListCard
          icon={filtered ? IconShieldCheck : IconUsers}
          title={filtered ? 'Every member meets the policy' : 'No members yet'}
        >
          {filtered
            ? 'Nobody is missing a second factor the policy asks for.'
            : 'Invite people to the organization: they show up here with their second factors.'}
        </EmptyListCard>
      )}

      {data && data.results.length > 0 && (
        <Card padding={0} withBorder>
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing="sm" horizontalSpacing="md">
              <Table.Caption>
                {filtered ? 'Members who do not meet the policy' : 'Members'}: {data.count}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Member</Table.Th>
                  <Table.Th visibleFrom="md">Role</Table.Th>
                  <Table.Th visibleFrom="sm">Second factors</Table.Th>
                  {enforced && <Table.Th>Policy</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.results.map((member) => (
                  <Table.Tr key={member.user_id}>
                    <Table.Td>
                      <MemberIdentity user={member} />
                      {/* On a phone, the factors under the name (their column is hidden). */}
                      <Group gap={6} mt={6} hiddenFrom="sm">
                        <Text size="xs" c="dimmed">
                          Second factors:
                        </Text>
                        <Factors factors={member.factors} />
                      </Group>
                    </Table.Td>
                    <Table.Td visibleFrom="md">
                      <RoleBadge role={member.role as Role} />
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Factors factors={member.factors} />
                    </Table.Td>
                    {enforced && (
                      <Table.Td>
                        <ComplianceBadge compliant={member.compliant} />
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <PagePagination total={pages} page={page} onChange={setPage} />
    </Stack>
  );
}
