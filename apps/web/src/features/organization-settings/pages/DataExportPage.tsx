import { Alert, Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { can } from '@portolan/contract';
import { DataExportPanel } from '../../../lib/data-export-panel';
import { useOrganization } from '../api/org-settings-api';

/**
 * data-export (Data export, for OWNERs): an archive of everything the portal holds about the
 * organization — workspaces, members, roles and rules, billing records, activities.
 */
export function DataExportPage() {
  const { orgId, query, role } = useOrganization();
  const allowed = can({ orgRole: role }, 'organization.data.export');
  return (
    <Card padding="xl" component="section" aria-labelledby="org-data-export-title">
      <Stack gap={4} mb="lg">
        <Title order={2} fz="h3" id="org-data-export-title">
          Data export
        </Title>
        <Text size="sm" c="dimmed">
          Download everything the portal holds about this organization: its workspaces, members,
          roles and rules, billing records and activities.
        </Text>
      </Stack>
      {query.isPending ? (
        <Skeleton height={72} aria-busy="true" aria-label="Loading the organization" />
      ) : allowed ? (
        <DataExportPanel key={orgId} scope={{ kind: 'organization', orgId }} />
      ) : (
        <Alert color="orange" variant="light" title="Only owners export the organization’s data">
          Ask an owner of the organization for an export.
        </Alert>
      )}
    </Card>
  );
}
