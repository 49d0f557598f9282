import { Badge, Button, Menu, SegmentedControl } from '@mantine/core';
import {
  DEFAULT_ROLE_RULES,
  PERMISSION_STATUSES,
  ROLE_NAMES,
  type EffectiveStatus,
  type PermissionSource,
  type PermissionStatus,
} from '@portolan/contract';
import { IconChevronDown } from '@tabler/icons-react';

/** How a rule's or an override's status reads. */
export const STATUS_LABELS: Record<PermissionStatus, string> = {
  ALLOW: 'Allow',
  DENY: 'Deny',
  INHERIT: 'Inherit',
};

const CONTROL_COLORS: Record<PermissionStatus, string | undefined> = {
  ALLOW: 'teal.9',
  DENY: 'red.9',
  INHERIT: undefined,
};

/**
 * ALLOW / DENY / INHERIT for one permission: a radio group named by the permission (`label`), so
 * a screen reader says "View the shipment history, Deny, radio button, 2 of 3".
 */
export function StatusControl({
  label,
  value,
  onChange,
  readOnly = false,
}: {
  label: string;
  value: PermissionStatus;
  onChange: (status: PermissionStatus) => void;
  readOnly?: boolean;
}) {
  return (
    <SegmentedControl
      aria-label={label}
      size="xs"
      value={value}
      color={CONTROL_COLORS[value]}
      onChange={(next) => onChange(next as PermissionStatus)}
      readOnly={readOnly}
      disabled={readOnly}
      data={PERMISSION_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }))}
    />
  );
}

/** "Set the whole group": every permission of a group to one status at once. */
export function SetGroupMenu({
  groupName,
  onSet,
}: {
  groupName: string;
  onSet: (status: PermissionStatus) => void;
}) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          size="compact-sm"
          variant="default"
          rightSection={<IconChevronDown size={14} aria-hidden="true" />}
          aria-label={`Set the whole group ${groupName}`}
        >
          Set the whole group
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {PERMISSION_STATUSES.map((status) => (
          <Menu.Item key={status} onClick={() => onSet(status)}>
            {STATUS_LABELS[status]} all
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

const EFFECTIVE: Record<EffectiveStatus, { label: string; color: string }> = {
  ALLOW: { label: 'Allowed', color: 'teal' },
  DENY: { label: 'Denied', color: 'red' },
  DISABLED: { label: 'Disabled', color: 'gray' },
};

/** Where a permission ended up: Allowed, Denied, or Disabled (its module is off). */
export function EffectiveBadge({ status }: { status: EffectiveStatus }) {
  const { label, color } = EFFECTIVE[status];
  return (
    <Badge color={color} variant="light" c="dark.7" miw="max-content">
      {label}
    </Badge>
  );
}

export const effectiveLabel = (status: EffectiveStatus) => EFFECTIVE[status].label;

/** What decided a permission, in a few words. */
export function sourceText(source: PermissionSource): string {
  switch (source.kind) {
    case 'override':
      return 'Own override';
    case 'custom_role':
      return `Custom role ${source.role.name}, rule ${source.rule.name}`;
    case 'default_role':
      return `Default role ${ROLE_NAMES[source.role]} (${DEFAULT_ROLE_RULES[source.role].name})`;
    case 'inherit':
      return 'Nothing allows it, so it ends denied';
    case 'module_disabled':
      return 'The module is switched off';
  }
}

/** How many permissions a list of settings allows and denies. */
export function statusCounts(settings: readonly { status: PermissionStatus }[]) {
  return {
    allow: settings.filter((s) => s.status === 'ALLOW').length,
    deny: settings.filter((s) => s.status === 'DENY').length,
  };
}
