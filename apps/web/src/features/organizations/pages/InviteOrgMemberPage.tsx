import { can, canActOnRole, ORG_ROLES, type OrgRole } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { InviteMemberPage } from '../../../lib/invite-form';
import { memberTypeOf, orgUsersPath, useInviteMember, type InviteMode } from '../../../lib/members';
import { organizationQueryOptions } from '../../../lib/tenant-api';

/**
 * ps/organizations/:orgId/invite (by e-mail) and /add (a member at once): a role the caller may
 * give (spec §6 canActOnRole), then back to the users list the new member is in.
 */
function OrgInvitation({ mode }: { mode: InviteMode }) {
  const { orgId = '' } = useParams();
  const navigate = useNavigate();
  const organization = useQuery(organizationQueryOptions(orgId));
  const myRole = (organization.data?.role?.key ?? null) as OrgRole | null;
  const send = useInviteMember({ kind: 'organization', id: orgId }, mode);
  return (
    <InviteMemberPage
      mode={mode}
      where="organization"
      query={organization}
      tenantName={organization.data?.name}
      allowed={can({ orgRole: myRole }, 'organization.members.manage')}
      roles={ORG_ROLES.filter((role) => canActOnRole(myRole, role))}
      cancelTo={orgUsersPath(orgId, 'internal')}
      send={(body) => send.mutateAsync(body)}
      onSent={(member) => void navigate(orgUsersPath(orgId, memberTypeOf(member.role.key)))}
    />
  );
}

export function InviteOrgMemberPage() {
  return <OrgInvitation mode="invite" />;
}

export function AddOrgMemberPage() {
  return <OrgInvitation mode="add" />;
}
