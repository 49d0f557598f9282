import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Organization } from '@portolan/contract';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { ErrorCode } from '../../../lib/error-codes';
import { CreateFormActions, ProblemAlert } from '../../../lib/form-parts';
import { NameLogoFields, newNameLogoBody, useNameLogoForm } from '../../../lib/name-logo-fields';
import { tenantFormProblem } from '../../../lib/tenant-forms';
import { toast } from '../../../lib/toasts';
import { useCreateOrganization } from '../api/organizations-api';

/** After the creation: say so, and offer the next step, a first workspace. */
function Created({ organization }: { organization: Organization }) {
  const id = encodeURIComponent(organization.id);
  return (
    <Card padding="xl" component="section" aria-labelledby="org-created-title">
      <Stack gap="md" align="flex-start">
        <Group gap="sm" wrap="nowrap">
          <IconCircleCheck size={28} color="var(--mantine-color-teal-7)" aria-hidden="true" />
          <Title order={2} fz="h3" id="org-created-title">
            {organization.name} is ready
          </Title>
        </Group>
        <Text c="dimmed">
          You are its owner. Add a first workspace: it is where your team works, with the
          organization&apos;s modules.
        </Text>
        <Group gap="sm">
          <Button component={Link} to={`/ps/organizations/${id}/clients/add`}>
            Add a workspace
          </Button>
          <Button component={Link} to={`/ps/organization-settings/${id}/detail`} variant="default">
            Organization settings
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** ps/organizations/create: name and logo (POST /v1/organizations/), then "Add a workspace". */
export function CreateOrganizationPage() {
  const canCreate = useAuthStore((s) => s.user?.can_create_client ?? false);
  const create = useCreateOrganization();
  const [created, setCreated] = useState<Organization | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useNameLogoForm('organization');

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const organization = await create.mutateAsync(newNameLogoBody(values));
      toast.success(`The organization ${organization.name} has been created.`);
      setCreated(organization);
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.ORGANIZATION_LIMIT) {
        setFormError(
          'Your plan allows one organization, and you already have one. Add workspaces to it instead, or contact support to change your plan.',
        );
        return;
      }
      if (error instanceof ApiError && error.code === ErrorCode.PERMISSION_DENIED) {
        setFormError('Your account may not create organizations. Ask your administrator.');
        return;
      }
      setFormError(tenantFormProblem(form, error));
    }
  });

  return (
    <Stack gap="xl" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Create an organization</Title>
        <Text c="dimmed">An organization holds your workspaces, your team and your billing.</Text>
      </Stack>

      {created ? (
        <Created organization={created} />
      ) : !canCreate ? (
        <Alert color="orange" variant="light" title="You cannot create an organization">
          Your account may not create organizations. Ask an owner of your organization to invite you
          instead.
        </Alert>
      ) : (
        <Card padding="xl">
          <form onSubmit={onSubmit} noValidate aria-label="New organization">
            <Stack gap="md">
              <ProblemAlert>{formError}</ProblemAlert>
              <NameLogoFields form={form} what="organization" autoFocus />
              <CreateFormActions
                cancelTo="/ps/dashboard"
                submitLabel="Create organization"
                submitting={form.submitting}
              />
            </Stack>
          </form>
        </Card>
      )}
    </Stack>
  );
}
