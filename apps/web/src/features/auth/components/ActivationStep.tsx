import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ErrorCode } from '../../../lib/error-codes';
import { ApiError, errorMessage } from '../../../lib/api';
import { signInDestination } from '../../../lib/auth-store';
import { toast } from '../../../lib/toasts';
import { codeError } from '../../../lib/validation';
import { clearActivation, type PendingActivation } from '../api/activation-storage';
import { activate, resendActivationCode } from '../api/auth-api';
import { completeSignIn } from '../../../lib/sign-in';
import { track } from '../../../lib/analytics';
import { AuthHeading } from '../../../lib/auth-heading';
import { CodeInput } from '../../../lib/code-input';
import { FormAlert } from './FormAlert';

/** After activation the user is signed in (the answer carries a session token). */
export const ACTIVATED_WELCOME = 'Your account is active. Welcome to Portolan!';
/** An answer without a session token (a server of an older release): the user signs in. */
export const ACTIVATED_MESSAGE = 'Your account is active. Sign in to continue.';

export const ActivationMessages = {
  invalidCode: 'That code is not right. Check the e-mail we sent and try again.',
  codeExpired: 'This code has expired. Send a new code and enter it here.',
  tooManyAttempts: 'Too many wrong codes. Send a new code, then try again.',
  alreadyActive: 'This account is already active. Sign in to continue.',
  sessionExpired:
    'This activation link has expired. Sign in with your e-mail and password to get a new code.',
  signInFailed:
    'Your account is active, but we could not sign you in just now. Sign in with your e-mail and password to continue.',
} as const;

/** `/login`, keeping the `path` to come back to. */
export function loginLink(pathQuery: string | null): string {
  return pathQuery ? `/login?path=${encodeURIComponent(pathQuery)}` : '/login';
}

type ActivationOutcome = 'signed-in' | 'activated' | 'sign-in-failed';

function codeErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return errorMessage(error);
  switch (error.code) {
    case ErrorCode.INVALID_CODE:
      return ActivationMessages.invalidCode;
    case ErrorCode.CODE_EXPIRED:
      return ActivationMessages.codeExpired;
    case ErrorCode.TOO_MANY_ATTEMPTS:
      return ActivationMessages.tooManyAttempts;
    case ErrorCode.RATE_LIMITED:
      return 'Too many attempts. Try again in a few minutes.';
    case ErrorCode.VALIDATION_ERROR:
      return error.fieldErrors[0]?.message ?? errorMessage(error);
    default:
      return error.status >= 500 || error.status === 0
        ? 'We could not check the code right now. Please try again in a moment.'
        : errorMessage(error);
  }
}

export interface ActivationStepProps {
  pending: PendingActivation;
  /** Leave the code step (to register with another e-mail). */
  onRestart: () => void;
}

/** The code step of registration: the 6-digit code sent to the new account's e-mail. */
export function ActivationStep({ pending, onRestart }: ActivationStepProps) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const pathQuery = params.get('path');
  const [code, setCode] = useState('');
  const [codeProblem, setCodeProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: ReactNode } | null>(null);
  const [signInFailed, setSignInFailed] = useState(false);

  const toLogin = (message: string) => {
    clearActivation();
    toast.success(message);
    void navigate(loginLink(pathQuery), { replace: true, state: { email: pending.email } });
  };

  const activation = useMutation({
    /**
     * Activate, then sign in with the session token of the answer exactly as the login page does
     * (the public-page guard then takes the user to the `path` query, else the dashboard).
     */
    mutationFn: async (value: string): Promise<ActivationOutcome> => {
      const res = await activate(value, pending.token);
      // The code is used up and the account is active: the pending activation is over.
      clearActivation();
      track('sign-up completed');
      if (!res?.token) return 'activated';
      try {
        await completeSignIn(res.token, signInDestination(pathQuery));
        return 'signed-in';
      } catch {
        return 'sign-in-failed';
      }
    },
    onSuccess: (outcome) => {
      if (outcome === 'signed-in') toast.success(ACTIVATED_WELCOME);
      else if (outcome === 'activated') toLogin(ACTIVATED_MESSAGE);
      else setSignInFailed(true);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === ErrorCode.ALREADY_ACTIVATED) {
        toLogin(ActivationMessages.alreadyActive);
        return;
      }
      if (
        error instanceof ApiError &&
        (error.status === 401 || error.code === ErrorCode.INVALID_TOKEN)
      ) {
        clearActivation();
        setNotice({
          kind: 'error',
          text: (
            <>
              {ActivationMessages.sessionExpired}{' '}
              <Anchor component={Link} to={loginLink(pathQuery)} inherit fw={600}>
                Go to sign in
              </Anchor>
            </>
          ),
        });
        return;
      }
      setCodeProblem(codeErrorMessage(error));
    },
  });

  const resend = useMutation({
    mutationFn: () => resendActivationCode(pending.token),
    onSuccess: (res) => {
      setCode('');
      setCodeProblem(null);
      setNotice({
        kind: 'success',
        text: res?.detail || `We sent a new code to ${pending.email}.`,
      });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === ErrorCode.ALREADY_ACTIVATED) {
        clearActivation();
        setNotice({
          kind: 'success',
          text: (
            <>
              {ActivationMessages.alreadyActive}{' '}
              <Anchor
                component={Link}
                to={loginLink(pathQuery)}
                state={{ email: pending.email }}
                inherit
                fw={600}
              >
                Go to sign in
              </Anchor>
            </>
          ),
        });
        return;
      }
      setNotice({
        kind: 'error',
        text:
          error instanceof ApiError && error.code === ErrorCode.RATE_LIMITED
            ? 'Too many requests. Wait a few minutes before asking for another code.'
            : `We could not send a new code. ${errorMessage(error)}`,
      });
    },
  });

  if (signInFailed) {
    return (
      <>
        <AuthHeading title="Your account is active" />
        <FormAlert kind="info">{ActivationMessages.signInFailed}</FormAlert>
        <Button
          component={Link}
          to={loginLink(pathQuery)}
          state={{ email: pending.email }}
          fullWidth
          size="md"
        >
          Go to sign in
        </Button>
      </>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const problem = codeError(code);
    setCodeProblem(problem);
    if (problem) return;
    activation.mutate(code);
  };

  return (
    <>
      {/* The same words whether or not the address already had an account (no enumeration). */}
      <AuthHeading title="Check your e-mail">
        We sent a code to <strong>{pending.email || 'your e-mail address'}</strong>. Enter the 6
        digits below to activate your account.
      </AuthHeading>

      {notice && <FormAlert kind={notice.kind}>{notice.text}</FormAlert>}

      <form onSubmit={onSubmit} noValidate>
        <Stack gap="lg">
          <CodeInput
            label="Activation code"
            value={code}
            onChange={(value) => {
              setCode(value);
              if (codeProblem) setCodeProblem(null);
            }}
            error={codeProblem}
            autoFocus
          />
          <Button type="submit" fullWidth size="md" loading={activation.isPending}>
            Activate account
          </Button>
        </Stack>
      </form>

      <Stack gap="xs" mt="lg" align="center">
        <Text size="sm" c="dimmed" ta="center">
          Did not get it? Check your spam folder, or ask for a new code. Already have an account
          with this address?{' '}
          <Anchor
            component={Link}
            to={loginLink(pathQuery)}
            inherit
            fw={600}
            onClick={clearActivation}
          >
            Sign in
          </Anchor>
          .
        </Text>
        <Group gap="sm" justify="center">
          <Button
            variant="subtle"
            size="sm"
            loading={resend.isPending}
            onClick={() => resend.mutate()}
          >
            Resend code
          </Button>
          <Button
            variant="subtle"
            color="gray"
            size="sm"
            onClick={() => {
              clearActivation();
              onRestart();
            }}
          >
            Use a different e-mail
          </Button>
        </Group>
      </Stack>
    </>
  );
}
