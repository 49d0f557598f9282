import { Alert, Anchor, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  can,
  reachesWorkspaceMember,
  ROLE_NAMES,
  type OrgRole,
  type Role,
} from '@portolan/contract';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-error';
import { useAuthStore } from '../../../lib/auth-store';
import { displayName } from '../../../lib/current-user';
import { ErrorCode } from '../../../lib/error-codes';
import { MemberSection } from '../../../lib/member-page';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { clientQueryOptions, organizationQueryOptions } from '../../../lib/tenant-api';
import { memberPermissionsQueryOptions, orgMemberQueryOptions } from '../api/member-api';
import { EffectivePermissions, type PermissionTarget } from '../components/EffectivePermissions';
import { ExplainModal } from '../components/ExplainModal';
import { MemberCustomRoles, type CustomRolesPreview } from '../components/MemberCustomRoles';
import { permissionChanges } from '../components/permission-diff';

const enc = encodeURIComponent;

/**
 * The page's workspace and member from whichever route shows it: `:clientId` (client access, and
 * the specification's name), `:currentClientId` (user-permissions) or the workspace settings'
 * `:id`; and where "back" leads.
 */
function usePageTarget() {
  const { clientId, currentClientId, id, orgId, userId = '' } = useParams();
  const workspaceId = clientId ?? currentClientId ?? id ?? '';
  const back = orgId
    ? {
        to: `/ps/organizations/${enc(orgId)}/users/${enc(userId)}/client-access`,
        label: 'Workspace access',
      }
    : id
      ? {
          to: `/ps/client-settings/${enc(id)}/user-list/${enc(userId)}`,
          label: 'Back to the member',
        }
      : null;
  // Inside the workspace settings the layout holds the page's h1.
  return { target: { clientId: workspaceId, userId }, orgId, back, inSettings: id !== undefined };
}

/**
 * Who the member is: "You", their name when the caller may read the organization's members, or
 * nothing; and both organization roles, which §6 counts too (only an organization OWNER acts on
 * one), null while unknown.
 */
function useMemberInOrganization(target: PermissionTarget, orgId: string | undefined) {
  const myId = useAuthStore((s) => s.user?.user_id ?? '');
  const org = useQuery({ ...organizationQueryOptions(orgId ?? ''), enabled: Boolean(orgId) });
  const mayRead = can(
    { orgRole: (org.data?.role?.key ?? null) as OrgRole | null },
    'organization.members.read',
  );
  const member = useQuery({
    ...orgMemberQueryOptions(orgId ?? '', target.userId),
    enabled: Boolean(orgId) && mayRead && target.userId !== myId,
  });
  const actorOrgRole = (org.data?.role?.key ?? null) as OrgRole | null;
  const memberOrgRole = member.data?.status === 'MEMBER' ? (member.data.role.key as OrgRole) : null;
  const name = target.userId === myId ? 'You' : member.data ? displayName(member.data.user) : null;
  return { name, actorOrgRole, memberOrgRole };
}

/**
 * ps/client-settings/:id/user-list/:userId/permissions, ps/:currentClientId/user-permissions/
 * :userId and ps/organizations/:orgId/users/:userId/client-access/:clientId/permissions/: a
 * member's effective permissions in a workspace (status and source), their overrides per group
 * and their custom roles (preview, then apply) for those who may change them, and "Why?" on
 * every permission.
 */
export function MemberPermissionsPage() {
  const { target, orgId, back, inSettings } = usePageTarget();
  const client = useQuery(clientQueryOptions(target.clientId));
  const permissions = useQuery(memberPermissionsQueryOptions(target.clientId, target.userId));
  const { name, actorOrgRole, memberOrgRole } = useMemberInOrganization(
    target,
    orgId ?? client.data?.organization,
  );
  const [preview, setPreview] = useState<CustomRolesPreview | null>(null);
  const [explaining, setExplaining] = useState<{ key: string; name: string } | null>(null);

  const actorRole = (client.data?.role?.key ?? null) as Role | null;
  const memberRole = permissions.data?.role ?? null;
  // The API's checks: client.roles.manage, and spec §6 on the member's role (their organization
  // role counting: an organization OWNER's only for an organization OWNER).
  const canManage =
    can({ orgRole: null, workspaceRole: actorRole }, 'client.roles.manage') &&
    memberRole !== null &&
    reachesWorkspaceMember(
      { role: actorRole, orgRole: actorOrgRole },
      { role: memberRole, orgRole: memberOrgRole },
    );
  const changes =
    preview && permissions.data ? permissionChanges(permissions.data, preview.result) : [];
  const refused = permissions.error instanceof ApiError ? permissions.error.code : null;

  return (
    <Stack gap="lg" maw={960}>
      {back && (
        <Anchor component={Link} to={back.to} size="sm" w="fit-content">
          <Group gap={4} wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden="true" />
            {back.label}
          </Group>
        </Anchor>
      )}
      <Stack gap={4}>
        <Title order={inSettings ? 2 : 1} fz={inSettings ? 'h3' : { base: 'h2', sm: 'h1' }}>
          {name === 'You' ? 'Your permissions' : name ? `Permissions of ${name}` : 'Permissions'}
        </Title>
        {client.data && permissions.data ? (
          <Text c="dimmed" size="sm">
            In {client.data.name} · workspace role {ROLE_NAMES[permissions.data.role]}
          </Text>
        ) : (
          client.isPending && <Skeleton height={18} width={240} aria-hidden="true" />
        )}
      </Stack>

      {permissions.isPending && (
        <Stack gap="md" aria-busy="true" aria-label="Loading the permissions">
          <Skeleton height={96} radius="md" />
          <Skeleton height={240} radius="md" />
        </Stack>
      )}
      {permissions.isError &&
        (refused === ErrorCode.PERMISSION_DENIED ? (
          <Alert color="orange" variant="light" title="Not yours to see">
            Only the member themselves and the workspace&apos;s owners, admins and managers see
            these permissions.
          </Alert>
        ) : refused === ErrorCode.NOT_FOUND ? (
          <Alert color="orange" variant="light" title="Not a member of the workspace">
            This person is not (or no longer) a member of this workspace, so there are no
            permissions to show.
          </Alert>
        ) : (
          <QueryRetryAlert title="The permissions could not be loaded" query={permissions} />
        ))}

      {permissions.data && (
        <>
          <MemberSection title="Custom roles">
            <MemberCustomRoles
              target={target}
              canManage={canManage}
              preview={preview}
              changes={changes}
              onPreview={setPreview}
            />
          </MemberSection>
          <MemberSection title="Effective permissions">
            <Text size="sm" c="dimmed">
              Each permission, where it ends up and what decided it: the member&apos;s own override,
              then their custom roles in order, then their default role.
              {canManage ? ' Edit the overrides of a group to decide for this member alone.' : ''}
            </Text>
            <EffectivePermissions
              target={target}
              permissions={permissions.data}
              canManage={canManage}
              changes={changes}
              onWhy={(p) => setExplaining({ key: p.key, name: p.name })}
            />
          </MemberSection>
        </>
      )}
      <ExplainModal
        clientId={target.clientId}
        userId={target.userId}
        permission={explaining}
        onClose={() => setExplaining(null)}
      />
    </Stack>
  );
}
