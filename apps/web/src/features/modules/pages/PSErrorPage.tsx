import { Button, Card, EmptyState, Group, Text } from '@mantine/core';
import { IconBuildingWarehouse } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { SupportLine } from '../../../lib/support-contact';

/** PSErrorPage (spec §2): the workspace id of the link is not among the user's workspaces. */
export function PSErrorPage() {
  const [params] = useSearchParams();
  const wanted = params.get('client');
  return (
    <Card padding="xl" maw={960}>
      <EmptyState
        icon={<IconBuildingWarehouse size={36} stroke={1.5} aria-hidden="true" />}
        variant="light"
        color="orange"
      >
        <EmptyState.Title order={1} fz="h2">
          This workspace is not among yours
        </EmptyState.Title>
        <EmptyState.Description maw={560}>
          The link points to a workspace you do not belong to, or one that no longer exists. Ask its
          owner for an invitation.
        </EmptyState.Description>
        <SupportLine mt="xs" lead="If you think you should have access, write to support at" />
        {wanted && (
          <Text size="xs" c="dimmed" mt="xs">
            Workspace {wanted}
          </Text>
        )}
        <Group justify="center" mt="md">
          <Button component={Link} to="/ps/dashboard">
            Go to the dashboard
          </Button>
        </Group>
      </EmptyState>
    </Card>
  );
}
