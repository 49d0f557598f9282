import {
  Button,
  Checkbox,
  Group,
  Modal,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  API_KEY_NAME_MAX_LENGTH,
  can,
  MAX_API_KEY_WORKSPACES,
  type ApiKeyCreated,
  type OrgRole,
} from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { ProblemAlert } from '../../../lib/form-parts';
import { applyFieldErrors } from '../../../lib/forms';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { isStepUpRequired } from '../../../lib/step-up';
import { useCreateApiKey } from '../api/api-keys-api';
import { organizationClientsQueryOptions } from '../api/org-settings-api';
import { KEY_PERMISSION_GROUPS, permissionLabel } from './api-key-labels';
import { KeyWorkspacePicker } from './KeyWorkspacePicker';

export const CreateApiKeyMessages = {
  name: 'Enter a name for the key.',
  nameLength: `Keep the name to ${API_KEY_NAME_MAX_LENGTH} characters.`,
  permissions: 'Choose at least one permission.',
  workspaces: 'Choose at least one workspace, or let the key reach all of them.',
  workspacesMax: `Choose at most ${MAX_API_KEY_WORKSPACES} workspaces.`,
  expiry: 'Choose today or a later day, or leave it empty.',
  unavailable: 'The key could not be created right now. Please try again in a moment.',
} as const;

type Scope = 'all' | 'some';

interface Values {
  name: string;
  permissions: string[];
  scope: Scope;
  workspace_ids: string[];
  /** YYYY-MM-DD, or empty for a key that works until revoked. */
  expires_on: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Today in the user's time zone, as YYYY-MM-DD (what a date input holds). */
function today(): string {
  const d = new Date();
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const dd = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${mm}-${dd}`;
}

/** The key works through the whole chosen day, in the user's time zone. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();

/**
 * Where the server's validation details go: `expires_at` on the date, and an entry of a list
 * (`permissions.3`) on its list.
 */
const FIELD_ALIASES: Record<string, string> = {
  expires_at: 'expires_on',
  ...Object.fromEntries(
    Array.from({ length: MAX_API_KEY_WORKSPACES }, (_, i) => [
      [`permissions.${i}`, 'permissions'],
      [`workspace_ids.${i}`, 'workspace_ids'],
    ]).flat(),
  ),
};

interface CreateApiKeyModalProps {
  opened: boolean;
  onClose: () => void;
  orgId: string;
  orgRole: OrgRole | null;
  /** The key was made: the page shows it, this once. */
  onCreated: (created: ApiKeyCreated) => void;
}

/** "Create API key": a name, permissions, all or some workspaces, an optional last day. */
export function CreateApiKeyModal({ opened, onClose, ...rest }: CreateApiKeyModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Create API key"
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* Mounted while open: each opening starts with an empty form. */}
      <CreateApiKeyForm onClose={onClose} {...rest} />
    </Modal>
  );
}

function CreateApiKeyForm({
  onClose,
  orgId,
  orgRole,
  onCreated,
}: Omit<CreateApiKeyModalProps, 'opened'>) {
  const create = useCreateApiKey(orgId);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { name: '', permissions: [], scope: 'all', workspace_ids: [], expires_on: '' },
    validate: {
      name: (value) =>
        value.trim() === ''
          ? CreateApiKeyMessages.name
          : value.trim().length > API_KEY_NAME_MAX_LENGTH
            ? CreateApiKeyMessages.nameLength
            : null,
      permissions: (value) => (value.length === 0 ? CreateApiKeyMessages.permissions : null),
      workspace_ids: (value, values) => {
        if (values.scope === 'all') return null;
        if (value.length === 0) return CreateApiKeyMessages.workspaces;
        return value.length > MAX_API_KEY_WORKSPACES ? CreateApiKeyMessages.workspacesMax : null;
      },
      expires_on: (value) =>
        value && (!DAY.test(value) || value < today()) ? CreateApiKeyMessages.expiry : null,
    },
  });
  const values = form.getValues();
  const scope = values.scope;
  // The organization's workspaces (its first page: 250), to limit the key to some of them.
  const workspaces = useQuery({
    ...organizationClientsQueryOptions(orgId, 'all', ''),
    enabled: scope === 'some',
  });

  const onSubmit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      const created = await create.mutateAsync({
        name: values.name.trim(),
        permissions: values.permissions,
        workspace_ids: values.scope === 'some' ? values.workspace_ids : null,
        expires_at: values.expires_on ? endOfDay(values.expires_on) : null,
      });
      onCreated(created);
    } catch (error) {
      // The step-up dialog was closed: the form stays as it is, to send again.
      if (isStepUpRequired(error)) return;
      if (applyFieldErrors(form, error, FIELD_ALIASES)) return;
      // The rest says what to do itself: 409 API_KEY_LIMIT asks to revoke a key first.
      setProblem(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? CreateApiKeyMessages.unavailable
          : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create API key">
      <Stack gap="lg">
        <ProblemAlert>{problem}</ProblemAlert>
        <TextInput
          label="Name"
          description="Say what uses the key, to know it again: “ERP sync”, “2D Transit back end”."
          required
          maxLength={API_KEY_NAME_MAX_LENGTH}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Checkbox.Group
          label="Permissions"
          description="What the key may do. It never does more than its creator can at the time."
          required
          {...form.getInputProps('permissions')}
        >
          <Stack gap="lg" mt="xs">
            {KEY_PERMISSION_GROUPS.map((group) => (
              <Stack
                key={group.id}
                gap="xs"
                role="group"
                aria-labelledby={`key-permissions-${group.id}`}
              >
                <Stack gap={0}>
                  <Text fw={600} size="sm" id={`key-permissions-${group.id}`}>
                    {group.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {group.description}
                  </Text>
                </Stack>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="xs">
                  {group.permissions
                    .filter((permission) => can({ orgRole }, permission))
                    .map((permission) => (
                      <Checkbox
                        key={permission}
                        value={permission}
                        label={permissionLabel(permission)}
                        description={
                          <Text span ff="monospace" fz="xs">
                            {permission}
                          </Text>
                        }
                      />
                    ))}
                </SimpleGrid>
              </Stack>
            ))}
          </Stack>
        </Checkbox.Group>
        <Radio.Group label="Workspaces" {...form.getInputProps('scope')}>
          <Stack gap="sm" mt="xs">
            <Radio
              value="all"
              label="All workspaces"
              description="Including those created later."
            />
            <Radio value="some" label="Only some workspaces" />
          </Stack>
        </Radio.Group>
        {scope === 'some' &&
          (workspaces.isError ? (
            <QueryRetryAlert title="The workspaces could not be loaded" query={workspaces} />
          ) : (
            <KeyWorkspacePicker
              workspaces={workspaces.data?.results}
              value={values.workspace_ids}
              onChange={(ids) => form.setFieldValue('workspace_ids', ids)}
              error={form.errors.workspace_ids as string | undefined}
            />
          ))}
        <TextInput
          type="date"
          label="Expires"
          description="The last day the key works. Leave it empty for a key that works until revoked."
          min={today()}
          maw={260}
          {...form.getInputProps('expires_on')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
