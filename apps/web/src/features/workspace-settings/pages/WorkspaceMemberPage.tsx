import { Anchor, Text } from '@mantine/core';
import {
  can,
  canActOnRole,
  canChangeWorkspaceRole,
  canRemoveWorkspaceMember,
  effectiveWorkspaceRole,
  MEMBER_REFUSAL_MESSAGES,
  ROLES,
  type ClientMember,
  type OrgRole,
  type Role,
} from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-error';
import { confirmModal } from '../../../lib/confirm';
import { displayName } from '../../../lib/current-user';
import { formatDate } from '../../../lib/dates';
import { ErrorCode } from '../../../lib/error-codes';
import {
  InvitationSection,
  MemberPageFrame,
  MemberSummary,
  RemoveSection,
  RoleChangeSection,
  useMemberActions,
} from '../../../lib/member-page';
import { lastActive, MemberStatusBadge, RoleBadge } from '../../../lib/member-parts';
import { workspaceUsersPath } from '../../../lib/members';
import { workspaceMemberPermissionsPath } from '../../../lib/permission-paths';
import {
  clientMemberQueryOptions,
  useChangeWorkspaceRole,
  useRemoveWorkspaceMember,
  useResendWorkspaceInvitation,
  useWorkspaceActor,
} from '../api/members-api';

const notAMember = new ApiError(404, {
  code: ErrorCode.NOT_FOUND,
  message: 'This person is not a member of the workspace.',
});

/** user-list/:userId (user role): one member of the workspace, their role and their removal. */
export function WorkspaceMemberPage() {
  const { id = '', userId = '' } = useParams();
  const { ready } = useWorkspaceActor();
  const member = useQuery(clientMemberQueryOptions(id, userId));
  // Nobody found answers like the API would for a member it does not know; the page waits for
  // the caller's roles, which decide what it offers.
  const query =
    member.data === null
      ? { ...member, data: undefined, isError: true, error: notAMember }
      : {
          ...member,
          data: ready ? member.data : undefined,
          isPending: member.isPending || (!ready && !member.isError),
        };
  return (
    <MemberPageFrame
      where="workspace"
      backTo={workspaceUsersPath(id)}
      backLabel="Users"
      query={query}
    >
      {(m) => <WorkspaceMemberDetails member={m} />}
    </MemberPageFrame>
  );
}

function WorkspaceMemberDetails({ member }: { member: ClientMember }) {
  const { clientId, client, actor } = useWorkspaceActor();
  const userId = member.user.id;
  const changeRole = useChangeWorkspaceRole(clientId, userId);
  const remove = useRemoveWorkspaceMember(clientId, userId);
  const resend = useResendWorkspaceInvitation(clientId, userId);
  const name = displayName(member.user);
  // Their organization role counts too: an organization OWNER is an OWNER in every workspace.
  const target = {
    userId,
    role: member.role.key,
    orgRole: (member.organization_role?.key ?? null) as OrgRole | null,
  };
  const pending = member.status === 'PENDING';
  const manage = can(
    { orgRole: actor.orgRole, workspaceRole: actor.role },
    'client.members.manage',
  );
  const roles = ROLES.filter(
    (role) => role === target.role || canChangeWorkspaceRole(actor, target, role) === null,
  );
  const roleRefusal = canChangeWorkspaceRole(actor, target, target.role);
  const removal = canRemoveWorkspaceMember(actor, target);
  const acting = effectiveWorkspaceRole({ orgRole: actor.orgRole, workspaceRole: actor.role });
  const busy = remove.isPending || resend.isPending;
  const workspaceName = client.data?.name ?? 'the workspace';

  const actions = useMemberActions({
    where: 'workspace',
    name,
    email: member.user.email,
    remove: () => remove.mutateAsync(),
    resend: () => resend.mutateAsync(),
    listPath: workspaceUsersPath(clientId),
  });

  const onRole = (role: Role) =>
    void actions.run(
      () => changeRole.mutateAsync(role),
      (saved) => `${name} is now ${saved.role.name} in ${workspaceName}.`,
    );

  const onRemove = async () => {
    const ok = await confirmModal({
      title: `Remove ${name}?`,
      content: `${name} loses access to ${workspaceName}, with the custom roles and permissions they had in it. Their place in the organization stays as it is.`,
      confirmLabel: 'Remove member',
      danger: true,
    });
    if (ok) await actions.leave(`${name} has been removed from ${workspaceName}.`);
  };

  return (
    <>
      <MemberSummary
        user={member.user}
        facts={[
          { label: 'Workspace role', value: <RoleBadge role={member.role.key} /> },
          {
            label: 'Organization role',
            value: member.organization_role ? (
              <RoleBadge role={member.organization_role.key} />
            ) : (
              'None'
            ),
          },
          { label: 'Status', value: <MemberStatusBadge status={member.status} /> },
          { label: 'Last active', value: lastActive(member.last_active_at) },
        ]}
      />
      <RoleChangeSection
        label="Workspace role"
        current={target.role}
        roles={roles}
        refusal={roleRefusal && MEMBER_REFUSAL_MESSAGES[roleRefusal]}
        pending={pending}
        saving={changeRole.isPending}
        onSave={onRole}
      />
      {(can({ orgRole: actor.orgRole, workspaceRole: actor.role }, 'client.roles.read') ||
        userId === actor.userId) && (
        <Anchor
          component={Link}
          to={workspaceMemberPermissionsPath(clientId, userId)}
          w="fit-content"
        >
          Permissions, custom roles and overrides of {name}
        </Anchor>
      )}
      {pending && manage && (
        <InvitationSection
          email={member.user.email}
          busy={busy}
          onResend={canActOnRole(acting, target.role) ? actions.resend : null}
          onCancel={removal === null ? () => void actions.cancelInvitation() : null}
        />
      )}
      {!pending && removal === null && (
        <RemoveSection
          title="Remove from the workspace"
          buttonLabel="Remove member"
          busy={busy}
          onRemove={() => void onRemove()}
        >
          {name} loses access to {workspaceName}. They stay in the organization.
        </RemoveSection>
      )}
      <Text size="xs" c="dimmed">
        Member since {formatDate(member.created)}.
      </Text>
    </>
  );
}
