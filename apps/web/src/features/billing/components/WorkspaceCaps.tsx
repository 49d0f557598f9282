import { Button, Card, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { Client, SpendCap } from '@portolan/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { spendCapQueryOptions } from '../api/spend-caps-api';
import { organizationWorkspacesQueryOptions } from '../api/workspaces-api';
import { formatMoney } from '../format';
import { PhoneDetail } from '../../../lib/phone-detail';
import { WalletSection } from './WalletSection';
import { WorkspaceCapModal } from './WorkspaceCapModal';

/** Workspaces per page of the table: each one's cap is a request of its own. */
const PAGE = 10;

function CapText({ cap }: { cap: SpendCap | undefined }) {
  if (!cap) return <Skeleton height={16} width={80} />;
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      {cap.monthly_limit === null ? 'No cap' : formatMoney(cap.monthly_limit, cap.currency)}
    </Text>
  );
}

function SpentText({ cap }: { cap: SpendCap | undefined }) {
  if (!cap) return <Skeleton height={16} width={80} />;
  const over = cap.monthly_limit !== null && cap.spent_this_period >= cap.monthly_limit;
  return (
    <Text size="sm" c={over ? 'red.9' : undefined} style={{ whiteSpace: 'nowrap' }}>
      {formatMoney(cap.spent_this_period, cap.currency)}
      {over ? ' (cap reached)' : ''}
    </Text>
  );
}

/**
 * Each workspace's own monthly cap and what it spent this month, a page of 10 at a time; Edit
 * opens the cap in a dialog. On a phone the cap and spending stack under the name.
 */
export function WorkspaceCaps({ orgId }: { orgId: string }) {
  const workspaces = useQuery(organizationWorkspacesQueryOptions(orgId));
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Client | null>(null);
  const all = workspaces.data ?? [];
  const shown = all.slice((page - 1) * PAGE, page * PAGE);
  const caps = useQueries({
    queries: shown.map((w) => spendCapQueryOptions(orgId, { kind: 'workspace', clientId: w.id })),
  });
  const failed = caps.find((c) => c.isError);
  const editingCap = editing ? caps[shown.findIndex((w) => w.id === editing.id)]?.data : undefined;

  return (
    <WalletSection
      id="wallet-workspace-caps-title"
      title="Workspace caps"
      description="A workspace may also have a monthly cap of its own, for the charges made for it."
    >
      {workspaces.isError ? (
        <QueryRetryAlert title="The workspaces could not be loaded" query={workspaces} />
      ) : !workspaces.data ? (
        <Skeleton height={120} aria-busy="true" aria-label="Loading the workspaces" />
      ) : all.length === 0 ? (
        <Text size="sm" c="dimmed">
          The organization has no workspace yet.
        </Text>
      ) : (
        <Stack gap="md">
          {failed && <QueryRetryAlert title="Some caps could not be loaded" query={failed} />}
          <Card padding={0} withBorder>
            <Table.ScrollContainer minWidth={0}>
              <Table
                verticalSpacing="sm"
                horizontalSpacing="md"
                aria-label="Workspace caps"
                styles={{ td: { verticalAlign: 'top' } }}
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Workspace</Table.Th>
                    <Table.Th visibleFrom="sm">Monthly cap</Table.Th>
                    <Table.Th visibleFrom="sm">Spent this month</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((w, i) => {
                    const cap = caps[i]?.data;
                    return (
                      <Table.Tr key={w.id}>
                        <Table.Td>
                          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                            {w.name}
                          </Text>
                          <Stack gap={4} mt={6} hiddenFrom="sm">
                            <PhoneDetail termWidth={84} term="Monthly cap">
                              <CapText cap={cap} />
                            </PhoneDetail>
                            <PhoneDetail termWidth={84} term="Spent">
                              <SpentText cap={cap} />
                            </PhoneDetail>
                          </Stack>
                        </Table.Td>
                        <Table.Td visibleFrom="sm">
                          <CapText cap={cap} />
                        </Table.Td>
                        <Table.Td visibleFrom="sm">
                          <SpentText cap={cap} />
                        </Table.Td>
                        <Table.Td ta="right">
                          <Button
                            variant="default"
                            size="xs"
                            disabled={!cap}
                            aria-label={`Edit the cap of ${w.name}`}
                            onClick={() => setEditing(w)}
                          >
                            Edit
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
          <PagePagination
            total={Math.max(1, Math.ceil(all.length / PAGE))}
            page={page}
            onChange={setPage}
          />
        </Stack>
      )}
      <WorkspaceCapModal
        orgId={orgId}
        workspace={editing}
        cap={editingCap}
        onClose={() => setEditing(null)}
      />
    </WalletSection>
  );
}
