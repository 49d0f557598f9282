import { Button, Group, Text } from '@mantine/core';
import {
  can,
  canActOnRole,
  canChangeOrgRole,
  canRemoveOrgMember,
  MEMBER_REFUSAL_MESSAGES,
  ORG_ROLES,
  ROLE_NAMES,
  type MemberRemovalChoice,
  type OrgMember,
  type OrgRole,
} from '@portolan/contract';
import { IconLayoutGrid } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store';
import { chooseModal, confirmModal } from '../../../lib/confirm';
import { displayName } from '../../../lib/current-user';
import { formatDate } from '../../../lib/dates';
import {
  InvitationSection,
  MemberPageFrame,
  MemberSection,
  MemberSummary,
  RemoveSection,
  RoleChangeSection,
  useMemberActions,
} from '../../../lib/member-page';
import { lastActive, MemberStatusBadge, RoleBadge } from '../../../lib/member-parts';
import { memberTypeOf, orgUsersPath } from '../../../lib/members';
import {
  orgMemberQueryOptions,
  useChangeOrgRole,
  useRemoveOrgMember,
  useResendOrgInvitation,
} from '../api/members-api';
import { useOrganization } from '../api/org-settings-api';

/** users/:type/:userId: one member of the organization. */
export function OrgMemberPage() {
  const { userId = '', type } = useParams();
  const { orgId, query: org } = useOrganization();
  const member = useQuery(orgMemberQueryOptions(orgId, userId));
  const listType = type === 'external' ? 'external' : 'internal';
  // What the page offers depends on the caller's role: it waits for the organization too.
  const query = {
    ...member,
    data: org.isPending ? undefined : member.data,
    isPending: member.isPending || (org.isPending && !member.isError),
  };
  return (
    <MemberPageFrame
      where="organization"
      backTo={orgUsersPath(orgId, listType)}
      backLabel={listType === 'external' ? 'Back to external users' : 'Back to internal users'}
      query={query}
    >
      {(m) => <OrgMemberDetails member={m} />}
    </MemberPageFrame>
  );
}

const removalChoices = (member: OrgMember) => {
  const count = member.client_count;
  const workspaces = count === 1 ? 'its 1 workspace' : `its ${count} workspaces`;
  return [
    {
      value: 'remove_everywhere' as const,
      label: 'Remove from every workspace',
      description: `They lose access to the organization and ${workspaces}.`,
    },
    {
      value: 'keep_as_external' as const,
      label: 'Keep them in their workspaces as an external user',
      description: `They stay in ${workspaces} as a client (external user) of the organization.`,
    },
  ];
};

/** How the member leaves: a choice when they still belong to workspaces (REFERENCE), else a yes. */
async function askRemoval(member: OrgMember): Promise<MemberRemovalChoice | undefined | null> {
  const name = displayName(member.user);
  if (member.client_count > 0 && member.role.key !== 'CLIENT') {
    return chooseModal({
      title: `Remove ${name}?`,
      content: `${name} still belongs to workspaces of this organization.`,
      question: 'What happens to their workspaces?',
      choices: removalChoices(member),
      confirmLabel: 'Remove member',
      danger: true,
    });
  }
  const ok = await confirmModal({
    title: `Remove ${name}?`,
    content:
      member.client_count > 0
        ? `${name} loses access to the organization and to every workspace of it they belong to.`
        : `${name} loses access to the organization.`,
    confirmLabel: 'Remove member',
    danger: true,
  });
  if (!ok) return null;
  // An external member still in workspaces can only leave them all.
  return member.client_count > 0 ? 'remove_everywhere' : undefined;
}

function OrgMemberDetails({ member }: { member: OrgMember }) {
  const { orgId, query: org, role: myRole } = useOrganization();
  const myId = useAuthStore((s) => s.user?.user_id ?? '');
  const navigate = useNavigate();
  const userId = member.user.id;
  const changeRole = useChangeOrgRole(orgId, userId);
  const remove = useRemoveOrgMember(orgId, userId);
  const resend = useResendOrgInvitation(orgId, userId);
  const name = displayName(member.user);
  const target = { userId, role: member.role.key as OrgRole };
  const me = { userId: myId, role: (myRole ?? 'CLIENT') as OrgRole };
  const manage = can({ orgRole: myRole }, 'organization.members.manage');
  const pending = member.status === 'PENDING';
  const roles = ORG_ROLES.filter(
    (role) => role === target.role || (myRole && canChangeOrgRole(me, target, role) === null),
  );
  const roleRefusal = myRole ? canChangeOrgRole(me, target, target.role) : 'NOT_PERMITTED';
  const removal = myRole ? canRemoveOrgMember(me, target) : 'NOT_PERMITTED';
  const busy = remove.isPending || resend.isPending;

  const actions = useMemberActions({
    where: 'organization',
    name,
    email: member.user.email,
    remove: (choice) => remove.mutateAsync(choice),
    resend: () => resend.mutateAsync(),
    listPath: orgUsersPath(orgId, memberTypeOf(member.role.key)),
  });

  const onRole = async (role: OrgRole) => {
    if (userId === myId) {
      const ok = await confirmModal({
        title: 'Change your own role?',
        content: `You become ${ROLE_NAMES[role]} and may lose the right to manage members: nobody can raise their own role again.`,
        confirmLabel: 'Change my role',
        danger: true,
      });
      if (!ok) return;
    }
    let type = memberTypeOf(target.role);
    const done = await actions.run(
      () => changeRole.mutateAsync(role),
      (saved) => {
        type = memberTypeOf(saved.role.key);
        return `${name} is now ${saved.role.name}.`;
      },
    );
    // A change between internal and external moves them to the other list.
    if (done) {
      void navigate(`${orgUsersPath(orgId, type)}/${encodeURIComponent(userId)}`, {
        replace: true,
      });
    }
  };

  const onRemove = async () => {
    const choice = await askRemoval(member);
    if (choice === null) return;
    await actions.leave(
      choice === 'keep_as_external'
        ? `${name} has left the organization's staff and stays in their workspaces as an external user.`
        : `${name} has been removed from the organization.`,
      choice,
    );
  };

  const accessPath = `/ps/organizations/${encodeURIComponent(orgId)}/users/${encodeURIComponent(userId)}/client-access`;

  return (
    <>
      <MemberSummary
        user={member.user}
        facts={[
          { label: 'Organization role', value: <RoleBadge role={member.role.key} /> },
          { label: 'Status', value: <MemberStatusBadge status={member.status} /> },
          { label: 'Last active', value: lastActive(member.last_active_at) },
          { label: 'Member since', value: formatDate(member.created) },
        ]}
      />
      <RoleChangeSection
        label="Organization role"
        current={target.role}
        roles={roles}
        refusal={roleRefusal && MEMBER_REFUSAL_MESSAGES[roleRefusal]}
        pending={pending}
        saving={changeRole.isPending}
        onSave={(role) => void onRole(role as OrgRole)}
      />
      {pending && manage && (
        <InvitationSection
          email={member.user.email}
          busy={busy}
          onResend={myRole && canActOnRole(myRole, target.role) ? actions.resend : null}
          onCancel={removal === null ? () => void actions.cancelInvitation() : null}
        />
      )}
      <MemberSection title="Workspace access">
        <Text size="sm">
          {member.client_count === 0
            ? `${name} belongs to no workspace of ${org.data?.name ?? 'the organization'} yet.`
            : `${name} belongs to ${member.client_count} ${member.client_count === 1 ? 'workspace' : 'workspaces'} of ${org.data?.name ?? 'the organization'}.`}
        </Text>
        <Group>
          <Button
            component={Link}
            to={accessPath}
            variant="default"
            leftSection={<IconLayoutGrid size={16} aria-hidden="true" />}
          >
            Workspace access
          </Button>
        </Group>
      </MemberSection>
      {!pending && removal === null && (
        <RemoveSection
          title="Remove from the organization"
          buttonLabel="Remove member"
          busy={busy}
          onRemove={() => void onRemove()}
        >
          {name} loses access to the organization.{' '}
          {member.client_count > 0 &&
            'You choose whether they also leave their workspaces or stay in them as an external user.'}
        </RemoveSection>
      )}
    </>
  );
}
