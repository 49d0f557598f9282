import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { can, type OrgRole } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { loadFailureReason } from '../../../lib/api';
import { withAriaInvalid } from '../../../lib/forms';
import { LogoField } from '../../../lib/logo-field';
import { RetryAlert } from '../../../lib/retry-alert';
import { NAME_MAX_LENGTH, organizationQueryOptions } from '../../../lib/tenant-api';
import { tenantFormProblem, tenantNameError } from '../../../lib/tenant-forms';
import { toast } from '../../../lib/toasts';
import { useCreateWorkspace } from '../api/organizations-api';

interface Values {
  name: string;
  logo: string | null;
}

/** The message after a creation: STAFF's workspaces wait for an owner's or an admin's approval. */
export function createdMessage(name: string, active: boolean): string {
  return active
    ? `The workspace ${name} has been created.`
    : `The workspace ${name} has been created. It waits for approval by an owner or an admin of the organization before anyone can use it.`;
}

/** ps/organizations/:orgId/clients/add: name and logo (POST /v1/organizations/{orgId}/clients/). */
export function AddWorkspacePage() {
  const { orgId = '' } = useParams();
  const navigate = useNavigate();
  const organization = useQuery(organizationQueryOptions(orgId));
  const create = useCreateWorkspace(orgId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { name: '', logo: null },
    validate: { name: tenantNameError('workspace') },
  });
  const role = (organization.data?.role?.key ?? null) as OrgRole | null;
  const allowed = can({ orgRole: role }, 'organization.clients.create');
  const waits = role === 'STAFF';

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const client = await create.mutateAsync({
        name: values.name.trim(),
        ...(values.logo ? { logo: values.logo } : {}),
      });
      const message = createdMessage(client.name, client.active);
      if (client.active) toast.success(message);
      else toast.info(message, 'Waiting for approval');
      void navigate(`/ps/organization-settings/${encodeURIComponent(orgId)}/clients`);
    } catch (error) {
      setFormError(tenantFormProblem(form, error));
    }
  });

  return (
    <Stack gap="xl" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Add a workspace</Title>
        {organization.isPending ? (
          <Skeleton height={20} width={240} aria-hidden="true" />
        ) : (
          organization.data && (
            <Text c="dimmed">
              A new workspace in <strong>{organization.data.name}</strong>.
            </Text>
          )
        )}
      </Stack>

      {organization.isPending && (
        <Skeleton height={260} radius="lg" aria-label="Loading the organization" />
      )}

      {organization.isError && (
        <RetryAlert
          title="The organization could not be loaded"
          onRetry={() => void organization.refetch()}
        >
          {loadFailureReason(organization.error)}
        </RetryAlert>
      )}

      {organization.data && !allowed && (
        <Alert color="orange" variant="light" title="You cannot add workspaces here">
          Only owners, admins and staff of {organization.data.name} can add workspaces.{' '}
          <Anchor component={Link} to="/ps/dashboard" inherit fw={600}>
            Go to your dashboard
          </Anchor>
          .
        </Alert>
      )}

      {organization.data && allowed && (
        <Card padding="xl">
          <form onSubmit={onSubmit} noValidate aria-label="New workspace">
            <Stack gap="md">
              {waits && (
                <Alert color="blue" variant="light" title="It will wait for approval">
                  As a staff member, the workspaces you add wait for an owner or an admin of the
                  organization to approve them.
                </Alert>
              )}
              {formError && (
                <Alert color="red" variant="light" role="alert">
                  {formError}
                </Alert>
              )}
              <TextInput
                label="Workspace name"
                required
                maxLength={NAME_MAX_LENGTH}
                description="Unique within the organization."
                {...form.getInputProps('name')}
              />
              <LogoField
                name={form.getValues().name}
                value={form.getValues().logo}
                onChange={(url) => form.setFieldValue('logo', url)}
                error={form.errors.logo as string | undefined}
              />
              <Group justify="flex-end" gap="sm">
                <Button
                  component={Link}
                  to={`/ps/organization-settings/${encodeURIComponent(orgId)}/clients`}
                  variant="default"
                >
                  Cancel
                </Button>
                <Button type="submit" loading={form.submitting}>
                  Add workspace
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
      )}
    </Stack>
  );
}
