import {
  Anchor,
  Button,
  Divider,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import type { MfaChallengeResponse } from '@portolan/contract';
import { IconBrandGoogle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ErrorCode } from '../../../lib/error-codes';
import { ApiError, errorMessage } from '../../../lib/api';
import { signInDestination } from '../../../lib/auth-store';
import { usePublicConfig } from '../../../lib/config';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { passkeysSupported } from '../../../lib/passkeys';
import { emailError, requiredError } from '../../../lib/validation';
import { activationFromDetails, saveActivation } from '../api/activation-storage';
import { challengeOf, googleStartUrl, login } from '../api/auth-api';
import { completeSignIn } from '../../../lib/sign-in';
import { track } from '../../../lib/analytics';
import { AuthHeading } from '../../../lib/auth-heading';
import { FormAlert } from '../components/FormAlert';
import { MfaSignInStep } from '../components/MfaSignInStep';
import { PasskeySignInButton, passkeySignInProblem } from '../components/PasskeySignInButton';

export const LoginMessages = {
  invalidCredentials: 'The e-mail or password is incorrect.',
  rateLimited: 'Too many attempts. Try again in a few minutes.',
} as const;

/** `/register`, keeping the `path` to go to once the new account is active and signed in. */
function registerLink(pathQuery: string | null): string {
  return pathQuery ? `/register?path=${encodeURIComponent(pathQuery)}` : '/register';
}

interface LoginValues {
  email: string;
  password: string;
}

/**
 * /login: e-mail and password (POST /v1/rest-auth/app/login/), a passkey alone, or Google. An
 * account with a second factor gets a second step (MfaSignInStep) after its password or Google.
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const pathQuery = params.get('path');
  const location = useLocation();
  const navigate = useNavigate();
  const { data: config } = usePublicConfig();
  const [formError, setFormError] = useState<ReactNode>(null);
  // A quiet word above the form: the passkey prompt was closed, nothing failed.
  const [formNote, setFormNote] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<MfaChallengeResponse | null>(null);

  const prefill = (location.state as { email?: unknown } | null)?.email;
  const form = useForm<LoginValues>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { email: typeof prefill === 'string' ? prefill : '', password: '' },
    validate: {
      email: emailError,
      password: requiredError('Enter your password.'),
    },
  });

  const finishSignIn = async (token: string, method = 'password') => {
    await completeSignIn(token, signInDestination(pathQuery));
    track('sign-in', { method });
  };

  const mutation = useMutation({
    mutationFn: async (values: LoginValues) => {
      const res = await login(values);
      const second = challengeOf(res);
      if (second) setChallenge(second);
      else if ('token' in res) await finishSignIn(res.token);
    },
  });

  const handleError = (error: unknown) => {
    if (!(error instanceof ApiError)) {
      setFormError(errorMessage(error));
      return;
    }
    switch (error.code) {
      case ErrorCode.INVALID_CREDENTIALS:
        setFormError(LoginMessages.invalidCredentials);
        return;
      case ErrorCode.RATE_LIMITED:
        setFormError(LoginMessages.rateLimited);
        return;
      case ErrorCode.ACCOUNT_NOT_ACTIVATED: {
        const pending = activationFromDetails(error.details);
        if (pending) {
          saveActivation({ token: pending.token, email: pending.email || form.getValues().email });
          void navigate(registerLink(pathQuery), { state: { fromLogin: true } });
          return;
        }
        setFormError('This account is not activated yet. Check your e-mail for the code.');
        return;
      }
      case ErrorCode.ACCOUNT_DISABLED:
        setFormError(
          config?.support_email
            ? `This account has been disabled. Contact ${config.support_email} for help.`
            : 'This account has been disabled. Contact support for help.',
        );
        return;
      default:
        if (applyFieldErrors(form, error)) return;
        // 500+ and network failures already raised a toast; say what to do here too.
        setFormError(
          error.status >= 500 || error.status === 0
            ? 'We could not sign you in right now. Please try again in a moment.'
            : errorMessage(error),
        );
    }
  };

  const passkeyFailed = (error: unknown) => {
    const problem = passkeySignInProblem(error);
    if (!problem) handleError(error);
    else if (problem.note) setFormNote(problem.text);
    else setFormError(problem.text);
  };

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    setFormNote(null);
    const email = values.email.trim();
    form.setFieldValue('email', email);
    try {
      await mutation.mutateAsync({ email, password: values.password });
    } catch (error) {
      handleError(error);
    }
  });

  const registration = config?.features.registration ?? false;
  const google = config?.features.google_login ?? false;
  const passkeys = passkeysSupported();

  if (challenge) {
    return (
      <MfaSignInStep
        challenge={challenge}
        onSignedIn={finishSignIn}
        onExpired={(message) => {
          setChallenge(null);
          setFormError(message);
        }}
        onBack={() => {
          setChallenge(null);
          setFormError(null);
        }}
      />
    );
  }

  return (
    <>
      <AuthHeading title="Sign in to Portolan">
        Welcome back. Enter your e-mail and password to continue.
      </AuthHeading>

      {formError && <FormAlert>{formError}</FormAlert>}
      {formNote && !formError && <FormAlert kind="info">{formNote}</FormAlert>}

      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="username"
            required
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" fullWidth size="md" loading={form.submitting}>
            Sign in
          </Button>
        </Stack>
      </form>

      {(passkeys || google) && (
        <>
          <Divider label="or" labelPosition="center" my="lg" />
          <Stack gap="sm">
            {passkeys && (
              <PasskeySignInButton
                onStart={() => {
                  setFormError(null);
                  setFormNote(null);
                }}
                onSignedIn={(token) => finishSignIn(token, 'passkey')}
                onError={passkeyFailed}
              />
            )}
            {google && (
              <Button
                component="a"
                href={googleStartUrl(pathQuery)}
                variant="default"
                fullWidth
                size="md"
                leftSection={<IconBrandGoogle size={18} aria-hidden="true" />}
              >
                Sign in with Google
              </Button>
            )}
          </Stack>
        </>
      )}

      {registration && (
        <Text ta="center" size="sm" mt="lg">
          New to Portolan?{' '}
          <Anchor component={Link} to={registerLink(pathQuery)} fw={600}>
            Create an account
          </Anchor>
        </Text>
      )}
    </>
  );
}
