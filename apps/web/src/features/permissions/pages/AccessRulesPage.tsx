import { Group, Text } from '@mantine/core';
import { MODULE_NAMES, type AccessRule } from '@portolan/contract';
import { IconShieldCheck } from '@tabler/icons-react';
import { ScopedListPage } from '../components/ScopedListPage';
import { statusCounts } from '../components/status';

function Counts({ rule }: { rule: AccessRule }) {
  const { allow, deny } = statusCounts(rule.permissions);
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="teal.9" fw={600} aria-label={`${allow} allowed`}>
        {allow} allow
      </Text>
      <Text size="sm" c="dimmed" aria-hidden="true">
        ·
      </Text>
      <Text size="sm" c="red.9" fw={600} aria-label={`${deny} denied`}>
        {deny} deny
      </Text>
    </Group>
  );
}

/** access-rules/ (both levels): the rules, their module and how many permissions they allow and deny. */
export function AccessRulesPage() {
  return (
    <ScopedListPage
      resource="access-rules"
      title="Access rules"
      one="access rule"
      intro="An access rule allows or denies a set of permissions. Custom roles list rules in order; what a rule leaves to inherit is decided further down."
      icon={IconShieldCheck}
      emptyText="There is no access rule here yet."
      columns={[
        {
          head: 'Module',
          cell: (rule) => (rule.module ? MODULE_NAMES[rule.module] : 'Every module'),
          visibleFrom: 'sm',
        },
        { head: 'Permissions', cell: (rule) => <Counts rule={rule} /> },
      ]}
    />
  );
}
