import { ColorInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Client, ClientUpdate } from '@portolan/contract';
import { useState } from 'react';
import { resetToSaved, withAriaInvalid } from './forms';
import { ProblemAlert, SaveChangesButton } from './form-parts';
import { NameLogoFields } from './name-logo-fields';
import { DEFAULT_BUTTON_COLOR } from './tenant-api';
import { tenantFormProblem, tenantNameError } from './tenant-forms';
import { toast } from './toasts';

interface Values {
  name: string;
  logo: string | null;
  dashboard_button_color: string;
}

const COLOR_RE = /^#[0-9a-fA-F]{6}$/;

/**
 * A workspace's name, logo and dashboard button colour. `save` sends the change (PATCH
 * /v1/clients/{id}/ or PUT under the organization); without `canEdit` the fields are read only.
 */
export function WorkspaceForm({
  client,
  canEdit,
  save,
}: {
  client: Client;
  canEdit: boolean;
  save: (body: Required<Pick<ClientUpdate, 'name'>> & ClientUpdate) => Promise<Client>;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const initial: Values = {
    name: client.name,
    logo: client.logo,
    dashboard_button_color: client.dashboard_button_color || DEFAULT_BUTTON_COLOR,
  };
  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: initial,
    validate: {
      name: tenantNameError('workspace'),
      dashboard_button_color: (value) =>
        COLOR_RE.test(value.trim()) ? null : 'Use a colour like #1985ac.',
    },
  });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await save({
        name: values.name.trim(),
        logo: values.logo,
        dashboard_button_color: values.dashboard_button_color.trim().toLowerCase(),
      });
      resetToSaved(form, {
        name: saved.name,
        logo: saved.logo,
        dashboard_button_color: saved.dashboard_button_color,
      });
      toast.success('The workspace has been saved.');
    } catch (error) {
      setFormError(tenantFormProblem(form, error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Workspace details">
      <Stack gap="md" maw={560}>
        <ProblemAlert>{formError}</ProblemAlert>
        <NameLogoFields form={form} what="workspace" readOnly={!canEdit} />
        <ColorInput
          label="Dashboard button colour"
          description="The colour of this workspace's button on the dashboard."
          format="hex"
          swatches={['#1985ac', '#046c93', '#2f9e44', '#e8590c', '#c2255c', '#5f3dc4']}
          readOnly={!canEdit}
          disallowInput={!canEdit}
          withPicker={canEdit}
          withEyeDropper={false}
          {...form.getInputProps('dashboard_button_color')}
        />
        {canEdit && <SaveChangesButton form={form} />}
      </Stack>
    </form>
  );
}
