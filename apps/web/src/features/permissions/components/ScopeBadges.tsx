import { Badge, Group } from '@mantine/core';
import type { RuleLevel } from '../../../lib/permission-paths';

/**
 * What sets a rule or role apart: made by the system (read-only), or the organization's seen
 * from one of its workspaces (usable here, changed in the organization's settings).
 */
export function ScopeBadges({
  item,
  level,
}: {
  item: { scope: RuleLevel; is_system: boolean };
  level: RuleLevel;
}) {
  const fromOrganization = level === 'client' && item.scope === 'organization';
  if (!item.is_system && !fromOrganization) return null;
  return (
    <Group gap={4}>
      {item.is_system && (
        <Badge size="sm" variant="light" color="gray" c="dark.7">
          System
        </Badge>
      )}
      {fromOrganization && (
        <Badge size="sm" variant="light" color="indigo" c="dark.7">
          Organization
        </Badge>
      )}
    </Group>
  );
}
