import { Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Client, ClientUpdate } from '@portolan/contract';
import { useState } from 'react';
import { ProblemAlert, SaveChangesButton } from '../../../lib/form-parts';
import { resetToSaved, withAriaInvalid } from '../../../lib/forms';
import { tenantFormProblem } from '../../../lib/tenant-forms';
import { toast } from '../../../lib/toasts';

/** The contract's MANAGER_MAX_LENGTH (a zod module, which must not reach the bundle). */
const MAX_LENGTH = 254;

interface Values {
  account_manager: string;
  special_project_manager: string;
}

const valuesOf = (client: Client): Values => ({
  account_manager: client.account_manager ?? '',
  special_project_manager: client.special_project_manager ?? '',
});

const lengthError = (value: string) =>
  value.trim().length > MAX_LENGTH ? `Keep it under ${MAX_LENGTH + 1} characters.` : null;

/**
 * The workspace's account manager and special project manager (REFERENCE). The server sends them
 * only to the portal's internal staff (users of its internal e-mail domains), so the section
 * shows only when they are in the answer; without `canEdit` (an OWNER or ADMIN) it is read only.
 */
export function WorkspaceManagersForm({
  client,
  canEdit,
  save,
}: {
  client: Client;
  canEdit: boolean;
  save: (body: ClientUpdate) => Promise<Client>;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: valuesOf(client),
    validate: { account_manager: lengthError, special_project_manager: lengthError },
  });
  if (client.account_manager === undefined && client.special_project_manager === undefined) {
    return null;
  }

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await save({
        account_manager: values.account_manager.trim() || null,
        special_project_manager: values.special_project_manager.trim() || null,
      });
      resetToSaved(form, valuesOf(saved));
      toast.success('The managers have been saved.');
    } catch (error) {
      setFormError(tenantFormProblem(form, error));
    }
  });

  return (
    <Stack gap="sm" component="section" aria-labelledby="ws-managers-title" maw={560}>
      <Stack gap={2}>
        <Title order={3} fz="h4" id="ws-managers-title">
          Account managers
        </Title>
        <Text size="sm" c="dimmed">
          Only the portal’s internal staff see these.
        </Text>
      </Stack>
      <form onSubmit={onSubmit} noValidate aria-label="Account managers">
        <Stack gap="md">
          <ProblemAlert>{formError}</ProblemAlert>
          <TextInput
            label="Account manager"
            placeholder={canEdit ? 'Name or e-mail' : 'None'}
            readOnly={!canEdit}
            {...form.getInputProps('account_manager')}
          />
          <TextInput
            label="Special project manager"
            placeholder={canEdit ? 'Name or e-mail' : 'None'}
            readOnly={!canEdit}
            {...form.getInputProps('special_project_manager')}
          />
          {canEdit && <SaveChangesButton form={form} />}
        </Stack>
      </form>
    </Stack>
  );
}
