import { Alert, Anchor, Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { can, type OrgRole } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CreateFormActions, ProblemAlert } from '../../../lib/form-parts';
import { NameLogoFields, newNameLogoBody, useNameLogoForm } from '../../../lib/name-logo-fields';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { organizationQueryOptions } from '../../../lib/tenant-api';
import { tenantFormProblem } from '../../../lib/tenant-forms';
import { toast } from '../../../lib/toasts';
import { useCreateWorkspace } from '../api/organizations-api';

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
  const form = useNameLogoForm('workspace');
  const role = (organization.data?.role?.key ?? null) as OrgRole | null;
  const allowed = can({ orgRole: role }, 'organization.clients.create');
  const waits = role === 'STAFF';

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const client = await create.mutateAsync(newNameLogoBody(values));
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
        <QueryRetryAlert title="The organization could not be loaded" query={organization} />
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
              <ProblemAlert>{formError}</ProblemAlert>
              <NameLogoFields
                form={form}
                what="workspace"
                description="Unique within the organization."
              />
              <CreateFormActions
                cancelTo={`/ps/organization-settings/${encodeURIComponent(orgId)}/clients`}
                submitLabel="Add workspace"
                submitting={form.submitting}
              />
            </Stack>
          </form>
        </Card>
      )}
    </Stack>
  );
}
