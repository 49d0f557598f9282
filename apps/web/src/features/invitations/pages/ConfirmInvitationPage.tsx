import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Messages, type InvitationKind } from '@portolan/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { NewPasswordFields, PersonNameFields } from '../../../lib/account-fields';
import { AuthHeading } from '../../../lib/auth-heading';
import { ApiError, errorMessage } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { ProblemAlert } from '../../../lib/form-parts';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { completeSignIn } from '../../../lib/sign-in';
import { invalidateTenancy } from '../../../lib/tenant-api';
import { toast } from '../../../lib/toasts';
import { confirmError, newPasswordError, requiredError } from '../../../lib/validation';
import { acceptInvitation, type AcceptAnswer } from '../api/invitations-api';

const NOUN: Record<InvitationKind, string> = { client: 'workspace', organization: 'organization' };

const acceptedText = (kind: InvitationKind) =>
  kind === 'client'
    ? Messages.invitationAcceptedWorkspace
    : Messages.invitationAcceptedOrganization;

/** Where an accepted invitation leads: the workspace's dashboard, or the portal dashboard. */
function destinationOf(answer: AcceptAnswer): string {
  return answer.client ? `/ps/${encodeURIComponent(answer.client.id)}/dashboard` : '/ps/dashboard';
}

/** The §8 failure text, with the server's reason (expired, already accepted, …) when it gave one. */
function failure(error: unknown): ReactNode {
  const reason = error instanceof ApiError && error.status < 500 ? errorMessage(error) : null;
  return (
    <>
      {Messages.invitationVerifyFailed}
      {reason && (
        <>
          <br />
          {reason}
        </>
      )}
    </>
  );
}

/**
 * /ps/clients/invitation?token=… (ps-ClientConfirm) and /ps/organizations/invitation?token=…
 * (ps-OrgConfirm), reached from the invitation e-mail. Signed in: one click accepts. Not signed in:
 * the token is checked at once; a person who never chose a password sets names and a password
 * here and lands signed in; someone with an account is told to sign in.
 */
export function ConfirmInvitationPage({ kind }: { kind: InvitationKind }) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const hasToken = useAuthStore((s) => Boolean(s.userToken));
  const isAuth = useAuthStore((s) => s.isAuth);
  const noun = NOUN[kind];

  if (!token) {
    return (
      <>
        <AuthHeading title={`Join a ${noun}`} />
        <ProblemAlert>
          This link is incomplete: it has no invitation token. Open the link from the e-mail again.
        </ProblemAlert>
        <Text ta="center" size="sm" mt="lg">
          <Anchor component={Link} to="/login" fw={600}>
            Go to sign in
          </Anchor>
        </Text>
      </>
    );
  }
  // A stored session is checked first: a signed-in invitee must not be taken for a stranger.
  if (hasToken && !isAuth) {
    return (
      <AuthHeading title={`Join the ${noun}`}>
        <span role="status">Checking your session…</span>
      </AuthHeading>
    );
  }
  return hasToken ? (
    <SignedInAccept kind={kind} token={token} />
  ) : (
    <AnonymousAccept kind={kind} token={token} />
  );
}

/** A signed-in invitee: one click. */
function SignedInAccept({ kind, token }: { kind: InvitationKind; token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<ReactNode>(null);
  const [busy, setBusy] = useState(false);
  const [passwordFor, setPasswordFor] = useState<AcceptAnswer | null>(null);

  const accept = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const answer = await acceptInvitation(kind, { token });
      if (answer.needs_password) {
        setPasswordFor(answer);
        return;
      }
      toast.success(acceptedText(kind));
      await invalidateTenancy(queryClient);
      void navigate(destinationOf(answer), { replace: true });
    } catch (error) {
      setProblem(failure(error));
    } finally {
      setBusy(false);
    }
  };

  if (passwordFor) return <PasswordStep kind={kind} token={token} answer={passwordFor} />;
  return (
    <>
      <AuthHeading title={`Join the ${NOUN[kind]}`}>
        You have been invited to a {NOUN[kind]} on Portolan. Accept to start working in it.
      </AuthHeading>
      <Stack gap="md">
        <ProblemAlert>{problem}</ProblemAlert>
        <Button onClick={() => void accept()} loading={busy} fullWidth>
          Accept the invitation
        </Button>
        <Text ta="center" size="sm">
          <Anchor component={Link} to="/ps/dashboard" fw={600}>
            Not now, go to the dashboard
          </Anchor>
        </Text>
      </Stack>
    </>
  );
}

type AnonymousState =
  | { step: 'checking' }
  | { step: 'password'; answer: AcceptAnswer }
  | { step: 'accepted'; answer: AcceptAnswer }
  | { step: 'failed'; problem: ReactNode };

/** Nobody signed in: check the token once, then ask for a password or say it is done. */
function AnonymousAccept({ kind, token }: { kind: InvitationKind; token: string }) {
  const [state, setState] = useState<AnonymousState>({ step: 'checking' });
  const started = useRef(false);

  useEffect(() => {
    // Once per page, also under React's double effects in development.
    if (started.current) return;
    started.current = true;
    acceptInvitation(kind, { token }).then(
      (answer) => setState({ step: answer.needs_password ? 'password' : 'accepted', answer }),
      (error: unknown) => setState({ step: 'failed', problem: failure(error) }),
    );
  }, [kind, token]);

  const noun = NOUN[kind];
  switch (state.step) {
    case 'checking':
      return (
        <AuthHeading title={`Join the ${noun}`}>
          <span role="status">Checking your invitation…</span>
        </AuthHeading>
      );
    case 'password':
      return <PasswordStep kind={kind} token={token} answer={state.answer} />;
    case 'accepted':
      return (
        <>
          <AuthHeading title={`You joined the ${noun}`} />
          <Stack gap="md">
            <Text role="status">{acceptedText(kind)}</Text>
            <Button
              component={Link}
              to={`/login?path=${encodeURIComponent(destinationOf(state.answer))}`}
              fullWidth
            >
              Sign in to continue
            </Button>
          </Stack>
        </>
      );
    case 'failed':
      return (
        <>
          <AuthHeading title={`Join the ${noun}`} />
          <ProblemAlert>{state.problem}</ProblemAlert>
          <Text ta="center" size="sm" mt="lg">
            <Anchor component={Link} to="/login" fw={600}>
              Go to sign in
            </Anchor>
          </Text>
        </>
      );
  }
}

interface PasswordValues {
  first_name: string;
  last_name: string;
  password: string;
  confirm: string;
}

/** An invitee who never chose a password: names and a password, then signed in and inside. */
function PasswordStep({
  kind,
  token,
  answer,
}: {
  kind: InvitationKind;
  token: string;
  answer: AcceptAnswer;
}) {
  const navigate = useNavigate();
  const [problem, setProblem] = useState<ReactNode>(null);
  const form = useForm<PasswordValues>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: {
      first_name: answer.first_name ?? '',
      last_name: answer.last_name ?? '',
      password: '',
      confirm: '',
    },
    validate: {
      first_name: requiredError('Enter your first name.'),
      last_name: requiredError('Enter your last name.'),
      password: (value) => newPasswordError(value, answer.email),
      confirm: (value, values) => confirmError(value, values.password),
    },
  });
  const target = answer.client?.name ?? answer.organization?.name;

  const onSubmit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      const done = await acceptInvitation(kind, {
        token,
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        password: values.password,
      });
      toast.success(acceptedText(kind));
      const destination = destinationOf(done);
      if (done.token) {
        await completeSignIn(done.token, destination);
        void navigate(destination, { replace: true });
      } else {
        void navigate(`/login?path=${encodeURIComponent(destination)}`, { replace: true });
      }
    } catch (error) {
      if (applyFieldErrors(form, error)) return;
      setProblem(failure(error));
    }
  });

  return (
    <>
      <AuthHeading title={target ? `Join ${target}` : `Join the ${NOUN[kind]}`}>
        {answer.email ? (
          <>
            Choose a password for <strong>{answer.email}</strong> to finish joining.
          </>
        ) : (
          'Choose a password to finish joining.'
        )}
      </AuthHeading>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <ProblemAlert>{problem}</ProblemAlert>
          <PersonNameFields form={form} />
          <NewPasswordFields
            password={form.getInputProps('password')}
            confirm={form.getInputProps('confirm')}
            label="Password"
          />
          <Button type="submit" loading={form.submitting} fullWidth>
            Join and sign in
          </Button>
        </Stack>
      </form>
    </>
  );
}

export function ClientConfirmPage() {
  return <ConfirmInvitationPage kind="client" />;
}

export function OrgConfirmPage() {
  return <ConfirmInvitationPage kind="organization" />;
}
