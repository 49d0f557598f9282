import { Checkbox, ScrollArea, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import type { Client } from '@portolan/contract';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

/** From this many workspaces on, a search narrows the list. */
const SEARCH_FROM = 8;

/**
 * The workspaces a key is limited to: a checkbox each, in a scrolling box, with a search when
 * there are many. Those hidden by the search stay chosen.
 */
export function KeyWorkspacePicker({
  workspaces,
  value,
  onChange,
  error,
}: {
  /** The organization's workspaces; undefined while they load. */
  workspaces: Client[] | undefined;
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string | null;
}) {
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = (workspaces ?? []).filter((w) => w.name.toLowerCase().includes(needle));

  return (
    <Stack gap="xs">
      {workspaces && workspaces.length >= SEARCH_FROM && (
        <TextInput
          label="Search workspaces"
          placeholder="Name"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
        />
      )}
      <Checkbox.Group
        label="Choose workspaces"
        description={`${value.length} chosen`}
        required
        value={value}
        onChange={onChange}
        error={error}
      >
        {workspaces ? (
          <ScrollArea.Autosize mah={220} type="auto" mt="xs">
            <Stack gap="xs" pb={2}>
              {shown.map((w) => (
                <Checkbox key={w.id} value={w.id} label={w.name} />
              ))}
              {shown.length === 0 && (
                <Text size="sm" c="dimmed">
                  {workspaces.length === 0
                    ? 'The organization has no workspace yet.'
                    : 'No workspace has that name.'}
                </Text>
              )}
            </Stack>
          </ScrollArea.Autosize>
        ) : (
          <Stack gap="xs" mt="xs" aria-busy="true" aria-label="Loading the workspaces">
            <Skeleton height={20} width="60%" />
            <Skeleton height={20} width="50%" />
          </Stack>
        )}
      </Checkbox.Group>
    </Stack>
  );
}
