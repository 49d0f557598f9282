import { Alert, Badge, Button, Group, List, Stack, Text } from '@mantine/core';
import type { CustomRole, MemberPermissions } from '@portolan/contract';
import { IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ProblemAlert } from '../../../lib/form-parts';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import {
  memberCustomRolesQueryOptions,
  useApplyCustomRoles,
  usePreviewCustomRoles,
} from '../api/member-api';
import { scopedListQueryOptions } from '../api/rules-api';
import { permissionChangeProblem } from './change-problems';
import { OrderedList, type OrderedItem } from './OrderedList';
import type { PermissionTarget } from './EffectivePermissions';
import type { PermissionChange } from './permission-diff';
import { effectiveLabel } from './status';

/** A previewed order and the permissions it would give. */
export interface CustomRolesPreview {
  ids: string[];
  result: MemberPermissions;
}

const sameOrder = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/** The body of the preview and of Apply: the roles with priorities 1..n in the order shown. */
const rolesBody = (ids: readonly string[]) => ({
  roles: ids.map((role, index) => ({ role, priority: index + 1 })),
});

function roleItem(
  role: Pick<CustomRole, 'id' | 'name' | 'scope'> & { rules?: unknown[] },
): OrderedItem {
  return {
    id: role.id,
    name: role.name,
    note: (
      <Group gap={6}>
        <Badge
          size="xs"
          variant="light"
          color={role.scope === 'organization' ? 'indigo' : 'gray'}
          c="dark.7"
        >
          {role.scope === 'organization' ? 'Organization' : 'Workspace'}
        </Badge>
        {role.rules && (
          <Text size="xs" c="dimmed">
            {role.rules.length} {role.rules.length === 1 ? 'rule' : 'rules'}
          </Text>
        )}
      </Group>
    ),
  };
}

/** What the preview would change, with Apply and Discard. */
function PreviewPanel({
  changes,
  applying,
  onApply,
  onDiscard,
}: {
  changes: PermissionChange[];
  applying: boolean;
  onApply: () => void;
  onDiscard: () => void;
}) {
  return (
    <Alert
      color="yellow"
      variant="light"
      title="Preview: nothing is saved yet"
      icon={<IconEye size={18} aria-hidden="true" />}
    >
      <Stack gap="sm">
        <Text size="sm">
          {changes.length === 0
            ? 'With this order, no permission changes.'
            : `With this order, ${changes.length} ${changes.length === 1 ? 'permission changes' : 'permissions change'} (highlighted below):`}
        </Text>
        {changes.length > 0 && (
          <List size="sm" spacing={4}>
            {changes.map((c) => (
              <List.Item key={c.key}>
                {c.name}: {effectiveLabel(c.from)} → <strong>{effectiveLabel(c.to)}</strong>
              </List.Item>
            ))}
          </List>
        )}
        <Group gap="sm">
          <Button onClick={onApply} loading={applying}>
            Apply
          </Button>
          <Button variant="default" onClick={onDiscard} disabled={applying}>
            Discard changes
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/**
 * The member's custom roles in priority order. Those who may change them add, remove and
 * reorder, then Preview (POST …/custom-roles/preview/: the permissions the new order would give,
 * nothing written), then Apply (PUT …/custom-roles/ {roles: [{role, priority}]}).
 */
export function MemberCustomRoles({
  target,
  canManage,
  preview,
  changes,
  onPreview,
}: {
  target: PermissionTarget;
  canManage: boolean;
  /** The current preview (its order is the one shown), or null. */
  preview: CustomRolesPreview | null;
  changes: PermissionChange[];
  onPreview: (preview: CustomRolesPreview | null) => void;
}) {
  const assigned = useQuery(memberCustomRolesQueryOptions(target.clientId, target.userId));
  const roles = useQuery({
    ...scopedListQueryOptions({ level: 'client', id: target.clientId }, 'custom-roles'),
    enabled: canManage,
  });
  const previewCall = usePreviewCustomRoles(target.clientId, target.userId);
  const apply = useApplyCustomRoles(target.clientId, target.userId);
  const [draft, setDraft] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (assigned.isPending || (canManage && roles.isPending)) {
    return <ListSkeleton label="Loading the custom roles" rows={2} height={44} />;
  }
  if (assigned.isError) {
    return (
      <QueryRetryAlert title="The member's custom roles could not be loaded" query={assigned} />
    );
  }
  if (roles.isError) {
    return <QueryRetryAlert title="The custom roles could not be loaded" query={roles} />;
  }

  const savedIds = [...assigned.data.roles]
    .sort((a, b) => a.priority - b.priority)
    .map((r) => r.role.id);
  const order = draft ?? savedIds;
  const changed = !sameOrder(order, savedIds);
  const available = (roles.data ?? []).map(roleItem);
  const items = order.map(
    (id) =>
      available.find((a) => a.id === id) ??
      roleItem(
        assigned.data.roles.find((r) => r.role.id === id)?.role ?? {
          id,
          name: id,
          scope: 'client',
        },
      ),
  );
  const previewed = preview !== null && sameOrder(preview.ids, order);

  const onChange = (ids: string[]) => {
    setProblem(null);
    setDraft(ids);
    onPreview(null);
  };

  const discard = () => {
    setProblem(null);
    setDraft(null);
    onPreview(null);
  };

  const onPreviewClick = async () => {
    setProblem(null);
    try {
      const result = await previewCall.mutateAsync(rolesBody(order));
      onPreview({ ids: order, result });
    } catch (error) {
      setProblem(permissionChangeProblem(error));
    }
  };

  const onApply = async () => {
    setProblem(null);
    try {
      await apply.mutateAsync(rolesBody(order));
      setDraft(null);
      onPreview(null);
      toast.success('The custom roles have been applied.');
    } catch (error) {
      setProblem(permissionChangeProblem(error));
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        The first custom role (and within it the first rule) that allows or denies a permission
        decides, after the member&apos;s own overrides and before their default role.
      </Text>
      <ProblemAlert>{problem}</ProblemAlert>
      <OrderedList
        label="Custom roles of the member, in priority order"
        what="custom role"
        items={items}
        available={available}
        onChange={onChange}
        readOnly={!canManage}
        empty={
          canManage && available.length === 0
            ? 'No custom role yet, and none exists in this workspace: create one under Custom roles in the workspace or organization settings.'
            : 'No custom role: the overrides and the default role decide.'
        }
      />
      {canManage && changed && !previewed && (
        <Group gap="sm">
          <Button
            leftSection={<IconEye size={16} aria-hidden="true" />}
            onClick={() => void onPreviewClick()}
            loading={previewCall.isPending}
          >
            Preview
          </Button>
          <Button variant="default" onClick={discard}>
            Discard changes
          </Button>
        </Group>
      )}
      {canManage && changed && previewed && (
        <PreviewPanel
          changes={changes}
          applying={apply.isPending}
          onApply={() => void onApply()}
          onDiscard={discard}
        />
      )}
    </Stack>
  );
}
