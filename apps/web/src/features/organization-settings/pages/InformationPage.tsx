import { Alert, Button, Card, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { can, type Organization } from '@portolan/contract';
import { useState } from 'react';
import { withAriaInvalid } from '../../../lib/forms';
import { LogoField } from '../../../lib/logo-field';
import { NAME_MAX_LENGTH } from '../../../lib/tenant-api';
import { tenantFormProblem, tenantNameError } from '../../../lib/tenant-forms';
import { toast } from '../../../lib/toasts';
import { useOrganization, useUpdateOrganization } from '../api/org-settings-api';
import { formatDate } from '../api/constants';

interface Values {
  name: string;
  logo: string | null;
}

function InformationForm({ org, canEdit }: { org: Organization; canEdit: boolean }) {
  const update = useUpdateOrganization(org.id);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { name: org.name, logo: org.logo },
    validate: { name: tenantNameError('organization') },
  });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await update.mutateAsync({ name: values.name.trim(), logo: values.logo });
      const next = { name: saved.name, logo: saved.logo };
      form.setInitialValues(next);
      form.setValues(next);
      form.resetDirty();
      toast.success('The organization has been saved.');
    } catch (error) {
      setFormError(tenantFormProblem(form, error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Organization information">
      <Stack gap="md" maw={560}>
        {!canEdit && (
          <Text size="sm" c="dimmed">
            Only an owner or an admin can change the organization&apos;s name and logo.
          </Text>
        )}
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        <TextInput
          label="Organization name"
          required
          maxLength={NAME_MAX_LENGTH}
          readOnly={!canEdit}
          {...form.getInputProps('name')}
        />
        <LogoField
          name={form.getValues().name}
          value={form.getValues().logo}
          onChange={(url) => form.setFieldValue('logo', url)}
          error={form.errors.logo as string | undefined}
          disabled={!canEdit}
        />
        <Text size="sm" c="dimmed">
          Created on {formatDate(org.created)}
        </Text>
        {canEdit && (
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting} disabled={!form.isDirty()}>
              Save changes
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** detail (Information): the organization's name and logo; OWNER and ADMIN change them. */
export function InformationPage() {
  const { query, role } = useOrganization();
  return (
    <Card padding="xl" component="section" aria-labelledby="org-info-title">
      <Title order={2} fz="h3" mb="md" id="org-info-title">
        Information
      </Title>
      {query.isPending && (
        <Stack gap="md" aria-busy="true" aria-label="Loading the organization">
          <Skeleton height={56} />
          <Skeleton height={72} />
        </Stack>
      )}
      {query.data && (
        <InformationForm
          key={query.data.id}
          org={query.data}
          canEdit={can({ orgRole: role }, 'organization.update')}
        />
      )}
    </Card>
  );
}
