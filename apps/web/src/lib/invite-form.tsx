import {
  Alert,
  Anchor,
  Card,
  PasswordInput,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm, type GetInputPropsReturnType } from '@mantine/form';
import { ROLE_NAMES, type InvitedMember, type Role } from '@portolan/contract';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CreateFormActions, ProblemAlert } from './form-parts';
import { withAriaInvalid } from './forms';
import { invitationProblem, type MemberPlace } from './member-errors';
import type { InvitationBody, InviteMode } from './members';
import { QueryRetryAlert } from './retry-alert';
import { toast } from './toasts';
import { inviteeEmailError, newPasswordError, PASSWORD_MIN_LENGTH } from './validation';

interface Values {
  email: string;
  role: string;
  first_name: string;
  last_name: string;
  password: string;
}

/** Names are optional and at most 150 characters (the contract's invitation schema). */
const NAME_MAX = 150;
const nameError = (which: string) => (value: string) =>
  value.trim().length > NAME_MAX
    ? `Keep the ${which} name under ${NAME_MAX + 1} characters.`
    : null;

/** The body of the call: trimmed, the names only when given, the password only to add. */
function bodyOf(values: Values, mode: InviteMode): InvitationBody {
  const first = values.first_name.trim();
  const last = values.last_name.trim();
  return {
    email: values.email.trim(),
    role: values.role as Role,
    ...(first ? { first_name: first } : {}),
    ...(last ? { last_name: last } : {}),
    ...(mode === 'add' ? { password: values.password } : {}),
  };
}

const WHO_MANAGES: Record<MemberPlace, string> = {
  organization: 'owners and admins',
  workspace: 'owners, admins and managers',
};

export interface InviteMemberPageProps {
  /** `invite`: by e-mail, they accept from the link; `add`: a member at once (force invitation). */
  mode: InviteMode;
  where: MemberPlace;
  /** The organization's or the workspace's query, for its loading and failure. */
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => Promise<unknown> };
  tenantName: string | undefined;
  /** Whether the caller may invite here (the contract's `can`); the server decides anyway. */
  allowed: boolean;
  /** The roles the caller may give (the contract's canActOnRole), most powerful first. */
  roles: readonly Role[];
  /** The users list: where Cancel goes. */
  cancelTo: string;
  send: (body: InvitationBody) => Promise<InvitedMember>;
  /** After the success toast: usually back to the users list. */
  onSent: (member: InvitedMember) => void;
  /** Replaces the plain e-mail field (the workspace's suggestions). */
  emailInput?: (props: GetInputPropsReturnType & { label: string }) => ReactNode;
}

/**
 * The pages that invite someone to an organization or a workspace (ps/organizations/:orgId/invite
 * and /add, ps/users/:id/invite and /add): e-mail, a role the caller may give (STAFF unless they
 * choose), optional names for a new account, and to add at once a password.
 */
export function InviteMemberPage(props: InviteMemberPageProps) {
  const { mode, where, query, tenantName, allowed } = props;
  const adding = mode === 'add';
  return (
    <Stack gap="xl" maw={720}>
      <Stack gap={4}>
        <Title order={1}>{adding ? 'Add a member' : 'Invite a member'}</Title>
        {query.isPending ? (
          <Skeleton height={20} width={240} aria-hidden="true" />
        ) : (
          tenantName && (
            <Text c="dimmed">
              {adding ? 'Add someone to' : 'Invite someone to'} <strong>{tenantName}</strong>.
            </Text>
          )
        )}
      </Stack>

      {query.isPending && <Skeleton height={320} radius="lg" aria-label={`Loading the ${where}`} />}

      {query.isError && (
        <QueryRetryAlert title={`The ${where} could not be loaded`} query={query} />
      )}

      {tenantName !== undefined && !allowed && (
        <Alert color="orange" variant="light" title="You cannot invite members here">
          Only {WHO_MANAGES[where]} of {tenantName} can invite or add members.{' '}
          <Anchor component={Link} to={props.cancelTo} inherit fw={600}>
            Back to the users
          </Anchor>
          .
        </Alert>
      )}

      {tenantName !== undefined && allowed && <InviteMemberForm {...props} />}
    </Stack>
  );
}

function InviteMemberForm({
  mode,
  where,
  roles,
  cancelTo,
  send,
  onSent,
  emailInput,
}: InviteMemberPageProps) {
  const adding = mode === 'add';
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: {
      email: '',
      role: roles.includes('STAFF') ? 'STAFF' : (roles.at(-1) ?? ''),
      first_name: '',
      last_name: '',
      password: '',
    },
    validate: {
      email: inviteeEmailError,
      role: (value) => (roles.includes(value as Role) ? null : 'Choose a role.'),
      first_name: nameError('first'),
      last_name: nameError('last'),
      password: (value, values) => (adding ? newPasswordError(value, values.email.trim()) : null),
    },
  });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const member = await send(bodyOf(values, mode));
      toast.success(
        adding
          ? `${member.user.email} has been added to the ${where}.`
          : `An invitation has been sent to ${member.user.email}.`,
      );
      onSent(member);
    } catch (error) {
      setFormError(invitationProblem(form, error, where));
    }
  });

  const emailProps = { ...form.getInputProps('email'), label: 'E-mail address' };
  return (
    <Card padding="xl">
      <form onSubmit={onSubmit} noValidate aria-label={adding ? 'Add a member' : 'Invite a member'}>
        <Stack gap="md">
          {adding ? (
            <Alert color="blue" variant="light" title="They are added at once">
              The person becomes a member right away, without accepting an invitation, and gets an
              e-mail saying so. Someone without an account gets one with the password you choose
              here: the e-mail does not contain it, so tell them yourself. Someone who already has
              an account keeps their own password.
            </Alert>
          ) : (
            <Text size="sm" c="dimmed">
              They get an e-mail with a link to accept, valid for 7 days, and a notification if they
              already have an account.
            </Text>
          )}
          <ProblemAlert>{formError}</ProblemAlert>
          {emailInput ? (
            emailInput(emailProps)
          ) : (
            <TextInput type="email" autoComplete="off" required data-autofocus {...emailProps} />
          )}
          <Select
            label="Role"
            description={
              where === 'organization'
                ? 'Owners, admins and staff are internal users; a client is an external user.'
                : 'Their role in this workspace.'
            }
            required
            allowDeselect={false}
            data={roles.map((role) => ({ value: role, label: ROLE_NAMES[role] }))}
            {...form.getInputProps('role')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            <TextInput
              label="First name"
              description="Optional, for a new account"
              autoComplete="off"
              {...form.getInputProps('first_name')}
            />
            <TextInput
              label="Last name"
              description="Optional, for a new account"
              autoComplete="off"
              {...form.getInputProps('last_name')}
            />
          </SimpleGrid>
          {adding && (
            <PasswordInput
              label="Password"
              description={`For a new account: at least ${PASSWORD_MIN_LENGTH} characters. A passphrase is best.`}
              autoComplete="new-password"
              required
              {...form.getInputProps('password')}
            />
          )}
          <CreateFormActions
            cancelTo={cancelTo}
            submitLabel={adding ? 'Add member' : 'Send invitation'}
            submitting={form.submitting}
          />
        </Stack>
      </form>
    </Card>
  );
}
