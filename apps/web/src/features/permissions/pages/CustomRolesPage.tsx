import { Text } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { ScopedListPage } from '../components/ScopedListPage';

/** custom-roles/ (both levels): the roles and the rules each lists, in priority order. */
export function CustomRolesPage() {
  return (
    <ScopedListPage
      resource="custom-roles"
      title="Custom roles"
      one="custom role"
      intro="A custom role is an ordered list of access rules. Give it to members on their permissions page; the first rule that allows or denies a permission decides."
      icon={IconUserShield}
      emptyText="There is no custom role here yet."
      columns={[
        {
          head: 'Rules',
          cell: (role) => (
            <Text size="sm">
              {role.rules.length === 0
                ? 'No rule'
                : `${role.rules.length} ${role.rules.length === 1 ? 'rule' : 'rules'}`}
            </Text>
          ),
        },
        {
          head: 'In order',
          cell: (role) => (
            <Text size="sm" c="dimmed" lineClamp={2}>
              {[...role.rules]
                .sort((a, b) => a.priority - b.priority)
                .map((r) => r.rule.name)
                .join(' → ') || '—'}
            </Text>
          ),
          visibleFrom: 'md',
        },
      ]}
    />
  );
}
