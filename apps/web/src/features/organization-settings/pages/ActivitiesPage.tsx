import {
  Alert,
  Button,
  Card,
  Group,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  can,
  MODULE_NAMES,
  type Activity,
  type ActivityAction,
  type ModuleCode,
} from '@portolan/contract';
import { IconActivity, IconDownload, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { ACTIVITY_LABELS, ACTIVITY_PAGE_SIZE_WEB } from '../api/constants';
import { activitiesQueryOptions, useOrganization } from '../api/org-settings-api';
import { ExportActivitiesModal } from '../components/ExportActivitiesModal';

function Who({ activity }: { activity: Activity }) {
  const u = activity.user;
  if (!u) return <Text size="sm">A former member</Text>;
  const name = `${u.first_name} ${u.last_name}`.trim();
  return (
    <Stack gap={0}>
      <Text size="sm">{name || u.email}</Text>
      {name && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {u.email}
        </Text>
      )}
    </Stack>
  );
}

/** An amount of a money setting's data (minor units), or "none" for a setting cleared. */
const amount = (value: unknown, currency: string) =>
  typeof value === 'number' ? formatMoney(value, currency) : 'none';

/** The money settings' own details (issue 22): the new value, and what it replaced. */
function moneySetting(action: string, data: Activity['data']): string | null {
  const currency = typeof data.currency === 'string' ? data.currency : 'usd';
  switch (action) {
    case 'UPDATE_SPEND_CAP':
      return `monthly limit ${amount(data.monthly_limit, currency)} (was ${amount(data.previous_monthly_limit, currency)})`;
    case 'UPDATE_BALANCE_ALERTS': {
      const thresholds = Array.isArray(data.thresholds) ? data.thresholds : [];
      return thresholds.length === 0
        ? 'no thresholds'
        : `below ${thresholds.map((t) => amount(t, currency)).join(', ')}`;
    }
    case 'UPDATE_AUTO_TOP_UP':
      return data.enabled === true ? `below ${amount(data.threshold, currency)}` : null;
    case 'UPDATE_BILLING_DETAILS':
      return [data.company_name, data.country, data.tax_id]
        .filter((part) => typeof part === 'string')
        .join(' · ');
    default:
      return null;
  }
}

function what(activity: Activity): string {
  const data = activity.data;
  const parts: string[] = [];
  if (typeof data.client_name === 'string') parts.push(data.client_name);
  if (typeof data.module === 'string')
    parts.push(MODULE_NAMES[data.module as ModuleCode] ?? data.module);
  if (typeof data.enabled === 'boolean') parts.push(data.enabled ? 'on' : 'off');
  if (typeof data.report === 'string') parts.push(data.report);
  const setting = moneySetting(activity.action, data);
  if (setting) parts.push(setting);
  return parts.join(' · ');
}

/**
 * activities: the organization's log (OWNER and ADMIN): filter by action, search, pages; and its
 * export (CSV or JSON Lines) with the same filters and a range of days.
 */
export function ActivitiesPage() {
  const { orgId, query: org, role } = useOrganization();
  const [action, setAction] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [key] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const allowed = can({ orgRole: role }, 'organization.activities.read');
  const activities = useQuery({
    ...activitiesQueryOptions(orgId, { page, action, key }),
    enabled: allowed,
  });
  const total = activities.data
    ? Math.max(1, Math.ceil(activities.data.count / ACTIVITY_PAGE_SIZE_WEB))
    : 1;
  const filtered = action !== null || key !== '';

  return (
    <Stack gap="md" component="section" aria-labelledby="org-activities-title">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={2} fz="h3" id="org-activities-title">
          Activities
        </Title>
        {allowed && (
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            onClick={() => setExporting(true)}
          >
            Export
          </Button>
        )}
      </Group>
      {allowed && (
        <ExportActivitiesModal
          opened={exporting}
          onClose={() => setExporting(false)}
          orgId={orgId}
          action={action}
          searchKey={key}
        />
      )}
      {org.data && !allowed ? (
        <Alert color="orange" variant="light" title="Only owners and admins see activities">
          Ask an owner or an admin of {org.data.name} if you need to know who did what.
        </Alert>
      ) : (
        <>
          <Group gap="sm" wrap="wrap" align="flex-end">
            <Select
              label="Action"
              placeholder="All actions"
              clearable
              value={action}
              onChange={(value) => {
                setAction(value);
                setPage(1);
              }}
              data={(Object.keys(ACTIVITY_LABELS) as ActivityAction[]).map((value) => ({
                value,
                label: ACTIVITY_LABELS[value],
              }))}
              style={{ flex: '0 1 260px' }}
            />
            <TextInput
              label="Search activities"
              placeholder="Name, e-mail or module"
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                setPage(1);
              }}
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              style={{ flex: '1 1 240px' }}
            />
          </Group>

          {activities.isPending && allowed && (
            <Stack gap="xs" aria-busy="true" aria-label="Loading the activities">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} height={40} radius="sm" />
              ))}
            </Stack>
          )}

          {activities.isError && (
            <QueryRetryAlert title="The activities could not be loaded" query={activities} />
          )}

          {activities.data && activities.data.results.length === 0 && (
            <EmptyListCard
              icon={IconActivity}
              title={filtered ? 'No activity matches' : 'No activity yet'}
            >
              {filtered
                ? 'Try another action or search.'
                : 'Sign-ins, workspace changes and members show up here as they happen.'}
            </EmptyListCard>
          )}

          {activities.data && activities.data.results.length > 0 && (
            <>
              <Card padding={0} withBorder>
                <Table.ScrollContainer minWidth={340}>
                  <Table verticalSpacing="sm" horizontalSpacing="md" striped>
                    <Table.Caption>
                      {activities.data.count}{' '}
                      {activities.data.count === 1 ? 'activity' : 'activities'}, newest first
                    </Table.Caption>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Date</Table.Th>
                        <Table.Th>Action</Table.Th>
                        <Table.Th>Who</Table.Th>
                        <Table.Th visibleFrom="md">Details</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {activities.data.results.map((a) => (
                        <Table.Tr key={a.id}>
                          <Table.Td>
                            <Text size="sm">{formatDate(a.created)}</Text>
                          </Table.Td>
                          <Table.Td>
                            <Text size="sm">
                              {ACTIVITY_LABELS[a.action as ActivityAction] ?? a.action}
                            </Text>
                            <Text size="xs" c="dimmed" hiddenFrom="md">
                              {what(a)}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Who activity={a} />
                          </Table.Td>
                          <Table.Td visibleFrom="md">
                            <Text size="sm">{what(a)}</Text>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Card>
              <PagePagination total={total} page={page} onChange={setPage} />
            </>
          )}
        </>
      )}
    </Stack>
  );
}
