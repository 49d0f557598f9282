import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import {
  MODULE_NAMES,
  type AccessRule,
  type CustomRole,
  type CustomRoleInput,
} from '@portolan/contract';
import type { RuleLevel } from '../../../lib/permission-paths';
import { scopedListQueryOptions } from '../api/rules-api';
import { OrderedList, type OrderedItem } from '../components/OrderedList';
import {
  ItemEditorForm,
  ScopedItemPage,
  useItemForm,
  type ItemFormProps,
} from '../components/ScopedItemEditor';
import { statusCounts } from '../components/status';

interface Values {
  name: string;
  description: string;
  /** The rules' ids, in priority order. */
  rules: string[];
}

const valuesOf = (role: CustomRole | null): Values => ({
  name: role?.name ?? '',
  description: role?.description ?? '',
  rules: [...(role?.rules ?? [])].sort((a, b) => a.priority - b.priority).map((r) => r.rule.id),
});

/** What is sent: the rules with priorities 1..n in the order shown. */
const bodyOf = (values: Values): CustomRoleInput => ({
  name: values.name.trim(),
  description: values.description.trim(),
  rules: values.rules.map((rule, index) => ({ rule, priority: index + 1 })),
});

/** A rule as the list shows it: its module, where it comes from, what it allows and denies. */
function ruleItem(
  rule: Pick<AccessRule, 'id' | 'name' | 'module' | 'scope'> &
    Partial<Pick<AccessRule, 'permissions'>>,
  level: RuleLevel,
): OrderedItem {
  const counts = rule.permissions ? statusCounts(rule.permissions) : null;
  return {
    id: rule.id,
    name: rule.name,
    note: (
      <Group gap={6}>
        <Text size="xs" c="dimmed">
          {rule.module ? MODULE_NAMES[rule.module] : 'Every module'}
          {counts && ` · ${counts.allow} allow · ${counts.deny} deny`}
        </Text>
        {level === 'client' && rule.scope === 'organization' && (
          <Badge size="xs" variant="light" color="indigo" c="dark.7">
            Organization
          </Badge>
        )}
      </Group>
    ),
  };
}

function CustomRoleForm(props: ItemFormProps<'custom-roles', AccessRule[]>) {
  const { scope, item: role, needed: rules } = props;
  const editor = useItemForm('custom-roles', props, valuesOf);
  const { form, readOnly } = editor;
  const available = rules.map((rule) => ruleItem(rule, scope.level));
  // A rule the role lists is shown even when the list of rules does not have it (yet).
  const listed = form.getValues().rules.map(
    (id) =>
      available.find((a) => a.id === id) ??
      ruleItem(
        role?.rules.find((r) => r.rule.id === id)?.rule ?? {
          id,
          name: id,
          module: null,
          scope: scope.level,
        },
        scope.level,
      ),
  );

  return (
    <ItemEditorForm resource="custom-roles" props={props} editor={editor} toBody={bodyOf}>
      <Stack gap={2}>
        <Title order={3} fz="h4">
          Access rules, in priority order
        </Title>
        <Text size="sm" c="dimmed">
          The first rule that allows or denies a permission decides; what every rule leaves to
          inherit goes on to the member&apos;s next custom role, then their default role.
        </Text>
      </Stack>
      <OrderedList
        label="Access rules of the role, in priority order"
        what="rule"
        items={listed}
        available={available}
        onChange={(ids) => form.setFieldValue('rules', ids)}
        readOnly={readOnly}
        empty={
          rules.length === 0
            ? 'There is no access rule here yet: create one under Access rules first.'
            : 'No rule yet: add one below.'
        }
      />
    </ItemEditorForm>
  );
}

/** custom-roles/create and custom-roles/:roleId (both levels): a role's name and its ordered rules. */
export function CustomRoleEditPage() {
  return (
    <ScopedItemPage
      resource="custom-roles"
      idParam="roleId"
      needs={(scope) => scopedListQueryOptions(scope, 'access-rules')}
      Form={CustomRoleForm}
    />
  );
}
