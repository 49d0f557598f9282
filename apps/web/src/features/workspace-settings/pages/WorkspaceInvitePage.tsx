import { Autocomplete, Stack, Text } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { can, canAddWorkspaceMember, ROLES, type InvitationSuggestion } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { displayName } from '../../../lib/current-user';
import { InviteMemberPage } from '../../../lib/invite-form';
import { useInviteMember, workspaceUsersPath, type InviteMode } from '../../../lib/members';
import { suggestionsQueryOptions, useWorkspaceActor } from '../api/members-api';

/**
 * The e-mail field with suggestions (GET …/users/invitation/suggestion?key=): people of the
 * caller's other workspaces, matched on e-mail and names as they type; any address can still be
 * typed.
 */
function SuggestedEmailInput({
  clientId,
  inputProps,
}: {
  clientId: string;
  inputProps: GetInputPropsReturnType & { label: string };
}) {
  const value = typeof inputProps.value === 'string' ? inputProps.value : '';
  const [key] = useDebouncedValue(value.trim(), 250);
  const suggestions = useQuery(suggestionsQueryOptions(clientId, key));
  const byEmail = new Map<string, InvitationSuggestion>(
    (suggestions.data ?? []).map((s) => [s.email, s]),
  );
  return (
    <Autocomplete
      {...inputProps}
      type="email"
      autoComplete="off"
      required
      data-autofocus
      description="Start typing: people of your other workspaces are suggested."
      data={[...byEmail.keys()]}
      // The server matched names too: keep every suggestion it sent.
      filter={({ options }) => options}
      renderOption={({ option }) => {
        const person = byEmail.get(option.value);
        const name = person ? displayName(person) : option.value;
        return (
          <Stack gap={0}>
            <Text size="sm">{name}</Text>
            {name !== option.value && (
              <Text size="xs" c="dimmed">
                {option.value}
              </Text>
            )}
          </Stack>
        );
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/**
 * ps/users/:id/invite (breadcrumbs Workspace Settings > Users) and ps/users/:id/add: a role the
 * caller may give in the workspace (the contract's canAddWorkspaceMember), then back to its users.
 */
function WorkspaceInvitation({ mode }: { mode: InviteMode }) {
  const { clientId, client, actor } = useWorkspaceActor();
  const navigate = useNavigate();
  const send = useInviteMember({ kind: 'workspace', id: clientId }, mode);
  const allowed = can(
    { orgRole: actor.orgRole, workspaceRole: actor.role },
    'client.members.manage',
  );
  return (
    <InviteMemberPage
      mode={mode}
      where="workspace"
      query={client}
      tenantName={client.data?.name}
      allowed={allowed}
      roles={ROLES.filter((role) => canAddWorkspaceMember(actor, role) === null)}
      cancelTo={workspaceUsersPath(clientId)}
      send={(body) => send.mutateAsync(body)}
      onSent={() => void navigate(workspaceUsersPath(clientId))}
      emailInput={(props) => <SuggestedEmailInput clientId={clientId} inputProps={props} />}
    />
  );
}

export function WorkspaceInvitePage() {
  return <WorkspaceInvitation mode="invite" />;
}

export function WorkspaceAddPage() {
  return <WorkspaceInvitation mode="add" />;
}
