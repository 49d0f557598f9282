import { Button, Checkbox, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { EVENT_GROUPS, eventDescription } from './webhook-events';

/**
 * The events an endpoint receives: a checkbox an event, with what it means, grouped by kind
 * (members, invitations…), each group with "Select all" (or "Clear" once all are chosen).
 * A button rather than a group checkbox: inside Checkbox.Group every checkbox is one of its values.
 */
export function WebhookEventPicker({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (events: string[]) => void;
  error?: ReactNode;
}) {
  return (
    <Checkbox.Group
      label="Events"
      description="What the endpoint receives: each event as a signed POST request."
      required
      value={value}
      onChange={onChange}
      error={error}
    >
      <Stack gap="lg" mt="xs">
        {EVENT_GROUPS.map((group) => {
          const all = group.types.every((type) => value.includes(type));
          const titleId = `webhook-events-${group.id}`;
          return (
            <Stack key={group.id} gap="xs" role="group" aria-labelledby={titleId}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text fw={600} size="sm" id={titleId}>
                  {group.title}
                </Text>
                <Button
                  variant="subtle"
                  size="compact-xs"
                  aria-label={all ? `Clear ${group.title}` : `Select all ${group.title}`}
                  onClick={() =>
                    onChange(
                      all
                        ? value.filter((type) => !group.types.includes(type))
                        : [...value, ...group.types.filter((type) => !value.includes(type))],
                    )
                  }
                >
                  {all ? 'Clear' : 'Select all'}
                </Button>
              </Group>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="xs">
                {group.types.map((type) => (
                  <Checkbox
                    key={type}
                    value={type}
                    label={
                      <Text span ff="monospace" fz="sm">
                        {type}
                      </Text>
                    }
                    description={eventDescription(type)}
                  />
                ))}
              </SimpleGrid>
            </Stack>
          );
        })}
      </Stack>
    </Checkbox.Group>
  );
}
