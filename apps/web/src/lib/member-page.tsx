import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { ROLE_NAMES, type MemberRemovalChoice, type Role } from '@portolan/contract';
import { IconArrowLeft, IconMailForward, IconTrash, IconX } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from './api-error';
import { confirmModal } from './confirm';
import { ErrorCode } from './error-codes';
import { memberActionProblem, type MemberPlace } from './member-errors';
import { MemberIdentity } from './member-parts';
import { QueryRetryAlert } from './retry-alert';
import { toast, toastFailure } from './toasts';

/**
 * The page of one member of an organization or a workspace: the way back to the list, who they
 * are, their role (changed with the contract's rules), their pending invitation (send again,
 * cancel) and their removal. Each feature decides what the caller may do; the server too.
 */

interface Person {
  email: string;
  first_name: string;
  last_name: string;
  avatar: string | null;
}

/** The back link, then the member once loaded (skeletons before; a 404 said plainly). */
export function MemberPageFrame<M>({
  where,
  backTo,
  backLabel,
  query,
  children,
}: {
  where: MemberPlace;
  backTo: string;
  backLabel: string;
  query: {
    data: M | undefined;
    isPending: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => Promise<unknown>;
  };
  children: (member: M) => ReactNode;
}) {
  const gone = query.error instanceof ApiError && query.error.code === ErrorCode.NOT_FOUND;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={backTo} size="sm" w="fit-content">
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={16} aria-hidden="true" />
          {backLabel}
        </Group>
      </Anchor>
      {query.isPending && (
        <Stack gap="md" aria-busy="true" aria-label="Loading the member">
          <Skeleton height={96} radius="md" />
          <Skeleton height={120} radius="md" />
        </Stack>
      )}
      {query.isError &&
        (gone ? (
          <Alert color="orange" variant="light" title={`Not a member of the ${where}`}>
            This person is not (or no longer) a member of the {where}. Go back to the list to see
            who is.
          </Alert>
        ) : (
          <QueryRetryAlert title="The member could not be loaded" query={query} />
        ))}
      {query.data !== undefined && children(query.data)}
    </Stack>
  );
}

/** Who the member is, with a few facts (role, status, dates) beside. */
export function MemberSummary({
  user,
  facts,
}: {
  user: Person;
  facts: { label: string; value: ReactNode }[];
}) {
  return (
    <Card withBorder padding="lg" component="section" aria-label="Member">
      <Stack gap="md">
        <MemberIdentity user={user} size={48} />
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" component="dl" m={0}>
          {facts.map((fact) => (
            <Stack key={fact.label} gap={2}>
              <Text component="dt" size="xs" c="dimmed">
                {fact.label}
              </Text>
              <Text component="dd" size="sm" m={0}>
                {fact.value}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

/** A titled part of the member page. */
export function MemberSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} fz="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/**
 * The member's role: a choice among `roles` (the current one and those the caller may give them)
 * and "Change role"; with no other role to give, the reason why instead. A pending member's role
 * waits for their answer.
 */
export function RoleChangeSection({
  label,
  current,
  roles,
  refusal,
  pending,
  saving,
  onSave,
}: {
  label: string;
  current: Role;
  roles: readonly Role[];
  /** Why the caller cannot change it (shown when `roles` offers nothing else). */
  refusal: string | null;
  pending: boolean;
  saving: boolean;
  onSave: (role: Role) => void;
}) {
  const [chosen, setChosen] = useState<Role>(current);
  const [savedFrom, setSavedFrom] = useState(current);
  // A change saved elsewhere (or just now) becomes the choice shown.
  if (savedFrom !== current) {
    setSavedFrom(current);
    setChosen(current);
  }
  const changeable = roles.some((role) => role !== current);
  return (
    <MemberSection title="Role">
      {pending ? (
        <Text size="sm" c="dimmed">
          {ROLE_NAMES[current]} is the role offered in the invitation. It can be changed once they
          accept it.
        </Text>
      ) : changeable ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (chosen !== current) onSave(chosen);
          }}
          aria-label="Change the role"
        >
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select
              label={label}
              allowDeselect={false}
              value={chosen}
              onChange={(value) => value && setChosen(value as Role)}
              data={roles.map((role) => ({ value: role, label: ROLE_NAMES[role] }))}
              style={{ flex: '1 1 200px', maxWidth: 320 }}
            />
            <Button type="submit" loading={saving} disabled={chosen === current}>
              Change role
            </Button>
          </Group>
        </form>
      ) : (
        <Text size="sm" c="dimmed">
          {ROLE_NAMES[current]}. {refusal}
        </Text>
      )}
    </MemberSection>
  );
}

/** A pending invitation: send it again (a new link) or cancel it, as the caller may. */
export function InvitationSection({
  email,
  onResend,
  onCancel,
  busy,
}: {
  email: string;
  /** Null: the caller may not. */
  onResend: (() => void) | null;
  onCancel: (() => void) | null;
  busy: boolean;
}) {
  return (
    <MemberSection title="Invitation">
      <Text size="sm">
        The invitation sent to {email} waits for an answer. Sending it again e-mails a new link; the
        old one stops working.
      </Text>
      {(onResend || onCancel) && (
        <Group gap="sm">
          {onResend && (
            <Button
              variant="default"
              leftSection={<IconMailForward size={16} aria-hidden="true" />}
              onClick={onResend}
              disabled={busy}
            >
              Resend invitation
            </Button>
          )}
          {onCancel && (
            <Button
              variant="outline"
              color="red.9"
              leftSection={<IconX size={16} aria-hidden="true" />}
              onClick={onCancel}
              disabled={busy}
            >
              Cancel invitation
            </Button>
          )}
        </Group>
      )}
    </MemberSection>
  );
}

/** The removal of an accepted member, behind a red button. */
export function RemoveSection({
  title,
  children,
  buttonLabel,
  onRemove,
  busy,
}: {
  title: string;
  children: ReactNode;
  buttonLabel: string;
  onRemove: () => void;
  busy: boolean;
}) {
  return (
    <MemberSection title={title}>
      <Text size="sm">{children}</Text>
      <Group>
        <Button
          color="red.9"
          leftSection={<IconTrash size={16} aria-hidden="true" />}
          onClick={onRemove}
          disabled={busy}
        >
          {buttonLabel}
        </Button>
      </Group>
    </MemberSection>
  );
}

/**
 * What the member page does with its calls: each says how it went in a toast (a failure in words
 * that say what to do), and a member who is gone sends the page back to the list.
 */
export function useMemberActions({
  where,
  name,
  email,
  remove,
  resend,
  listPath,
}: {
  where: MemberPlace;
  name: string;
  email: string;
  /** Removes the member or cancels their invitation; `choice` only in an organization. */
  remove: (choice?: MemberRemovalChoice) => Promise<unknown>;
  resend: () => Promise<unknown>;
  listPath: string;
}) {
  const navigate = useNavigate();
  /** Runs a call; true when it worked. */
  const run = async <T,>(call: () => Promise<T>, done: string | ((result: T) => string)) => {
    try {
      const result = await call();
      toast.success(typeof done === 'string' ? done : done(result));
      return true;
    } catch (error) {
      toastFailure(error, memberActionProblem(error, where));
      return false;
    }
  };
  const leave = async (done: string, choice?: MemberRemovalChoice) => {
    if (await run(() => remove(choice), done)) void navigate(listPath);
  };
  return {
    run,
    leave,
    resend: () => void run(resend, `The invitation has been sent again to ${email}.`),
    cancelInvitation: async () => {
      const ok = await confirmModal({
        title: `Cancel the invitation of ${name}?`,
        content: `The link sent to ${email} stops working. You can invite them again later.`,
        confirmLabel: 'Cancel invitation',
        cancelLabel: 'Keep it',
        danger: true,
      });
      if (ok) await leave(`The invitation of ${name} has been cancelled.`);
    },
  };
}
