import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { can, type Organization } from '@portolan/contract';
import { useState } from 'react';
import { formatDate } from '../../../lib/dates';
import { resetToSaved } from '../../../lib/forms';
import { ProblemAlert, SaveChangesButton } from '../../../lib/form-parts';
import { NameLogoFields, useNameLogoForm } from '../../../lib/name-logo-fields';
import { tenantFormProblem } from '../../../lib/tenant-forms';
import { toast } from '../../../lib/toasts';
import { useOrganization, useUpdateOrganization } from '../api/org-settings-api';

function InformationForm({ org, canEdit }: { org: Organization; canEdit: boolean }) {
  const update = useUpdateOrganization(org.id);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useNameLogoForm('organization', { name: org.name, logo: org.logo });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await update.mutateAsync({ name: values.name.trim(), logo: values.logo });
      resetToSaved(form, { name: saved.name, logo: saved.logo });
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
        <ProblemAlert>{formError}</ProblemAlert>
        <NameLogoFields form={form} what="organization" readOnly={!canEdit} />
        <Text size="sm" c="dimmed">
          Created on {formatDate(org.created)}
        </Text>
        {canEdit && <SaveChangesButton form={form} />}
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
