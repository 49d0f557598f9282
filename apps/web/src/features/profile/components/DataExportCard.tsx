import { Card, Stack, Text, Title } from '@mantine/core';
import { DataExportPanel } from '../../../lib/data-export-panel';

/** My Settings, "Your data": an archive of everything the portal holds about the user. */
export function DataExportCard() {
  return (
    <Card padding="xl" component="section" aria-labelledby="profile-data-export-title">
      <Stack gap={4} mb="lg">
        <Title order={2} fz="h3" id="profile-data-export-title">
          Your data
        </Title>
        <Text size="sm" c="dimmed">
          Download everything the portal holds about you: profile, memberships, notifications,
          activities and uploads.
        </Text>
      </Stack>
      <DataExportPanel scope={{ kind: 'user' }} />
    </Card>
  );
}
