import {
  ActionIcon,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Text,
  ThemeIcon,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';

/** One item of an ordered list: a rule of a role, a role of a member. */
export interface OrderedItem {
  id: string;
  name: string;
  /** Shown beside the name: where it comes from, what it covers. */
  note?: ReactNode;
}

type Control = 'up' | 'down' | 'remove';

/**
 * An ordered list whose order is the priority (1 first): move an item up or down, remove it, add
 * one of `available`. Every control is a labelled button, so it works from the keyboard; after a
 * move the focus stays on the item moved, and the new position is announced.
 */
export function OrderedList({
  label,
  what,
  items,
  available,
  onChange,
  readOnly = false,
  empty,
}: {
  /** The list's name ("Rules, in priority order"). */
  label: string;
  /** One item, in words: "rule", "custom role". */
  what: string;
  items: readonly OrderedItem[];
  /** What may be added (those already listed are left out here). */
  available: readonly OrderedItem[];
  onChange: (ids: string[]) => void;
  readOnly?: boolean;
  /** Shown when the list is empty. */
  empty: ReactNode;
}) {
  const [adding, setAdding] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // The control to focus once the list has been drawn again after a move.
  const focusNext = useRef<{ id: string; control: Control } | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const ids = items.map((item) => item.id);
  const addable = available.filter((item) => !ids.includes(item.id));

  useEffect(() => {
    const next = focusNext.current;
    if (!next) return;
    focusNext.current = null;
    buttons.current.get(`${next.id}:${next.control}`)?.focus();
  });

  const bind = (id: string, control: Control) => (node: HTMLButtonElement | null) => {
    if (node) buttons.current.set(`${id}:${control}`, node);
    else buttons.current.delete(`${id}:${control}`);
  };

  const move = (index: number, by: -1 | 1) => {
    const item = items[index];
    const target = index + by;
    if (!item || target < 0 || target >= items.length) return;
    const next = [...ids];
    next.splice(index, 1);
    next.splice(target, 0, item.id);
    onChange(next);
    setAnnouncement(`${item.name} moved to position ${target + 1} of ${items.length}.`);
    // At an end the button pressed disappears: the focus goes to the other one.
    const up: Control = target === 0 ? 'down' : 'up';
    const down: Control = target === items.length - 1 ? 'up' : 'down';
    focusNext.current = { id: item.id, control: by === -1 ? up : down };
  };

  const remove = (index: number) => {
    const item = items[index];
    if (!item) return;
    onChange(ids.filter((id) => id !== item.id));
    setAnnouncement(`${item.name} removed.`);
  };

  const add = () => {
    const item = addable.find((a) => a.id === adding);
    if (!item) return;
    onChange([...ids, item.id]);
    setAdding(null);
    setAnnouncement(`${item.name} added at position ${items.length + 1}.`);
  };

  return (
    <Stack gap="sm">
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack component="ol" gap="xs" m={0} p={0} aria-label={label} style={{ listStyle: 'none' }}>
          {items.map((item, index) => (
            <Card key={item.id} component="li" withBorder padding="xs" radius="sm">
              <Group gap="sm" wrap="nowrap" justify="space-between">
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  <ThemeIcon variant="light" radius="xl" size="md" aria-hidden="true">
                    <Text size="xs" fw={700}>
                      {index + 1}
                    </Text>
                  </ThemeIcon>
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                      <VisuallyHidden>Priority {index + 1}: </VisuallyHidden>
                      {item.name}
                    </Text>
                    {item.note}
                  </Stack>
                </Group>
                {!readOnly && (
                  <Group gap={4} wrap="nowrap">
                    {index > 0 && (
                      <ActionIcon
                        ref={bind(item.id, 'up')}
                        variant="subtle"
                        color="gray"
                        aria-label={`Move ${item.name} up`}
                        onClick={() => move(index, -1)}
                      >
                        <IconArrowUp size={16} aria-hidden="true" />
                      </ActionIcon>
                    )}
                    {index < items.length - 1 && (
                      <ActionIcon
                        ref={bind(item.id, 'down')}
                        variant="subtle"
                        color="gray"
                        aria-label={`Move ${item.name} down`}
                        onClick={() => move(index, 1)}
                      >
                        <IconArrowDown size={16} aria-hidden="true" />
                      </ActionIcon>
                    )}
                    <ActionIcon
                      variant="subtle"
                      color="red.9"
                      aria-label={`Remove ${item.name}`}
                      onClick={() => remove(index)}
                    >
                      <IconX size={16} aria-hidden="true" />
                    </ActionIcon>
                  </Group>
                )}
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {!readOnly && (
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={`Add a ${what}`}
            placeholder={addable.length > 0 ? `Choose a ${what}` : `No other ${what} to add`}
            data={addable.map((item) => ({ value: item.id, label: item.name }))}
            value={adding}
            onChange={setAdding}
            disabled={addable.length === 0}
            searchable
            nothingFoundMessage="Nothing matches"
            style={{ flex: '1 1 220px' }}
          />
          <Button
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={add}
            disabled={adding === null}
          >
            Add
          </Button>
        </Group>
      )}
    </Stack>
  );
}
