import { Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ErrorCode } from '../../../lib/error-codes';
import { ApiError, errorMessage } from '../../../lib/api';
import { signInDestination } from '../../../lib/auth-store';
import { challengeOf, googleLogin, type GoogleMfaChallenge } from '../api/auth-api';
import { completeSignIn } from '../../../lib/sign-in';
import { track } from '../../../lib/analytics';
import { AuthHeading } from '../../../lib/auth-heading';
import { FormAlert } from '../components/FormAlert';
import { MfaSignInStep } from '../components/MfaSignInStep';

function failureText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === ErrorCode.ACCOUNT_DISABLED)
      return 'This account has been disabled, so it cannot sign in with Google.';
    if (error.code === ErrorCode.FEATURE_DISABLED)
      return 'Signing in with Google is turned off. Sign in with your e-mail and password.';
    if (error.code === ErrorCode.OIDC_FAILED || error.code === ErrorCode.INVALID_TOKEN)
      return 'Google could not confirm who you are, or the sign-in took too long. Try again.';
    if (error.status >= 500 || error.status === 0)
      return 'We could not finish signing you in with Google. Please try again in a moment.';
  }
  return errorMessage(error, 'We could not finish signing you in with Google. Please try again.');
}

/**
 * /google-auth?code=&state=: where Google sends the user back (POST /v1/social-auth/google/). An
 * account with a second factor answers its step here (MfaSignInStep), then goes on to `path`.
 */
export function GoogleAuthPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const code = params.get('code');
  const state = params.get('state');
  const denied = params.get('error');
  const started = useRef(false);
  const [challenge, setChallenge] = useState<GoogleMfaChallenge | null>(null);
  const [expired, setExpired] = useState<string | null>(null);

  const finishSignIn = async (token: string, path: string | null) => {
    await completeSignIn(token, signInDestination(path));
    track('sign-in', { method: 'google' });
  };

  const mutation = useMutation({
    mutationFn: async ({ code, state }: { code: string; state: string }) => {
      const res = await googleLogin(code, state);
      const second = challengeOf(res);
      if (second) setChallenge({ ...second, path: res.path ?? null });
      else if ('token' in res) await finishSignIn(res.token, res.path ?? null);
    },
  });
  const { mutate } = mutation;

  // The code can be used once: never post it twice (React runs effects twice in development).
  useEffect(() => {
    if (started.current || !code || !state || denied) return;
    started.current = true;
    mutate({ code, state });
  }, [code, state, denied, mutate]);

  if (challenge) {
    return (
      <MfaSignInStep
        challenge={challenge}
        onSignedIn={(token) => finishSignIn(token, challenge.path)}
        onExpired={(message) => {
          setChallenge(null);
          setExpired(message);
        }}
        onBack={() => void navigate('/login')}
      />
    );
  }

  const problem = expired
    ? expired
    : denied
      ? 'Google sign-in was cancelled or refused. Sign in again to continue.'
      : !code || !state
        ? 'This sign-in link is incomplete. Start again from the sign-in page.'
        : mutation.isError
          ? failureText(mutation.error)
          : null;

  if (problem) {
    return (
      <>
        <AuthHeading title="Google sign-in did not complete" />
        <FormAlert>{problem}</FormAlert>
        <Stack gap="sm">
          <Button component={Link} to="/login" fullWidth>
            Back to sign in
          </Button>
        </Stack>
      </>
    );
  }

  return (
    <>
      <AuthHeading title="Signing you in with Google" />
      <Center py="lg" role="status" aria-live="polite">
        <Stack align="center" gap="sm">
          <Loader aria-hidden="true" />
          <Text c="dimmed" size="sm">
            Confirming your Google account…
          </Text>
        </Stack>
      </Center>
      <Text ta="center" size="sm">
        Taking too long?{' '}
        <Anchor component={Link} to="/login">
          Back to sign in
        </Anchor>
      </Text>
    </>
  );
}
