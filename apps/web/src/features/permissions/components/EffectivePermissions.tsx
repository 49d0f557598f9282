import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { MemberPermissions, PermissionStatus } from '@portolan/contract';
import { IconHelpCircle, IconPencil, IconPlugOff } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { ProblemAlert } from '../../../lib/form-parts';
import { toast } from '../../../lib/toasts';
import { useSaveGroupOverrides } from '../api/member-api';
import { setGroup, StatusRows } from './CatalogueStatuses';
import type { PermissionChange } from './permission-diff';
import { EffectiveBadge, effectiveLabel, SetGroupMenu, sourceText, STATUS_LABELS } from './status';
import { permissionChangeProblem } from './change-problems';

type Module = MemberPermissions['modules'][number];
type Group = Module['groups'][number];
type Effective = Group['permissions'][number];

export interface PermissionTarget {
  clientId: string;
  userId: string;
}

/** One permission: its status and what decided it, what a preview would change, and "Why?". */
function PermissionRow({
  permission,
  change,
  onWhy,
}: {
  permission: Effective;
  change: PermissionChange | undefined;
  onWhy: (permission: Effective) => void;
}) {
  return (
    <Group
      justify="space-between"
      gap="xs"
      wrap="wrap"
      p={change ? 'xs' : undefined}
      bg={change ? 'yellow.0' : undefined}
      bd={change ? '1px solid var(--mantine-color-yellow-6)' : undefined}
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
    >
      <Stack gap={2} style={{ flex: '1 1 200px', minWidth: 0 }}>
        <Text size="sm" fw={500}>
          {permission.name}
        </Text>
        <Text size="xs" c="dimmed">
          {sourceText(permission.source)}
          {permission.override !== 'INHERIT' && permission.source.kind !== 'override'
            ? ` · own override: ${STATUS_LABELS[permission.override]}`
            : ''}
        </Text>
        {change && (
          <Text size="xs" fw={600} c="dark.7">
            With the new order: {effectiveLabel(change.to)} ({sourceText(change.after.source)})
          </Text>
        )}
      </Stack>
      <Group gap="xs" wrap="nowrap">
        <EffectiveBadge status={permission.status} />
        {change && (
          <Badge color="yellow" variant="filled" c="dark.9" miw="max-content">
            Would be {effectiveLabel(change.to)}
          </Badge>
        )}
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconHelpCircle size={14} aria-hidden="true" />}
          aria-label={`Why? ${permission.name}`}
          onClick={() => onWhy(permission)}
        >
          Why?
        </Button>
      </Group>
    </Group>
  );
}

/** One group: its permissions, and the member's overrides of them edited and saved together. */
function GroupCard({
  target,
  module,
  group,
  canManage,
  changes,
  onWhy,
}: {
  target: PermissionTarget;
  module: Module;
  group: Group;
  canManage: boolean;
  changes: Map<string, PermissionChange>;
  onWhy: (permission: Effective) => void;
}) {
  const titleId = useId();
  const save = useSaveGroupOverrides(target.clientId, target.userId);
  const [draft, setDraft] = useState<Record<string, PermissionStatus> | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const saved = Object.fromEntries(group.permissions.map((p) => [p.key, p.override]));

  const onSave = async () => {
    if (!draft) return;
    setProblem(null);
    try {
      await save.mutateAsync({
        module: module.module,
        group: group.key,
        permissions: group.permissions.map((p) => ({
          permission: p.key,
          status: draft[p.key] ?? 'INHERIT',
        })),
      });
      setDraft(null);
      toast.success(`The overrides of ${group.name} have been saved.`);
    } catch (error) {
      setProblem(permissionChangeProblem(error));
    }
  };

  return (
    <Card withBorder padding="sm" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={4} fz="sm" id={titleId}>
            {group.name}
          </Title>
          {canManage && !draft && (
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconPencil size={14} aria-hidden="true" />}
              aria-label={`Edit the overrides of ${group.name}`}
              onClick={() => {
                setProblem(null);
                setDraft(saved);
              }}
            >
              Edit overrides
            </Button>
          )}
          {draft && (
            <SetGroupMenu
              groupName={group.name}
              onSet={(status) => setDraft(setGroup(draft, group.permissions, status))}
            />
          )}
        </Group>
        {draft ? (
          <form
            aria-label={`Overrides of ${group.name}`}
            onSubmit={(event) => {
              event.preventDefault();
              void onSave();
            }}
          >
            <Stack gap="sm">
              <Text size="xs" c="dimmed">
                An override comes before every role: Allow or Deny decides for this member alone;
                Inherit removes the override.
              </Text>
              <ProblemAlert>{problem}</ProblemAlert>
              <StatusRows
                permissions={group.permissions}
                statuses={draft}
                onChange={(key, status) => setDraft({ ...draft, [key]: status })}
              />
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={() => setDraft(null)} disabled={save.isPending}>
                  Cancel
                </Button>
                <Button type="submit" loading={save.isPending}>
                  Save {group.name}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Stack gap={6}>
            {group.permissions.map((p) => (
              <PermissionRow key={p.key} permission={p} change={changes.get(p.key)} onWhy={onWhy} />
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The member's effective permissions by module and group: each with its status (Allowed, Denied,
 * Disabled when the module is off) and its source; per group an edit of the overrides for those
 * who may; the changes a previewed custom-role order would make, highlighted.
 */
export function EffectivePermissions({
  target,
  permissions,
  canManage,
  changes,
  onWhy,
}: {
  target: PermissionTarget;
  permissions: MemberPermissions;
  canManage: boolean;
  changes: PermissionChange[];
  onWhy: (permission: Effective) => void;
}) {
  const byKey = new Map(changes.map((c) => [c.key, c]));
  if (permissions.modules.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This app has no module permissions to show.
      </Text>
    );
  }
  return (
    <Stack gap="lg">
      {permissions.modules.map((m) => (
        <Stack key={m.module} gap="sm">
          <Title order={3} fz="h5">
            {m.name}
          </Title>
          {!m.enabled && (
            <Alert color="gray" variant="light" icon={<IconPlugOff size={18} aria-hidden="true" />}>
              {m.name} is switched off in this workspace, so its permissions are disabled whatever
              the roles and overrides say. They apply again once it is switched on.
            </Alert>
          )}
          {m.groups.map((group) => (
            <GroupCard
              key={group.key}
              target={target}
              module={m}
              group={group}
              canManage={canManage}
              changes={byKey}
              onWhy={onWhy}
            />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
