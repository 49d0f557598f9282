import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorCode } from '../../../lib/error-codes';
import { ApiError, errorMessage } from '../../../lib/api';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { codeError, emailError } from '../../../lib/validation';
import { requestPasswordReset, verifyPasswordResetCode } from '../api/auth-api';
import { AuthHeading } from '../../../lib/auth-heading';
import { CodeInput } from '../../../lib/code-input';
import { FormAlert } from '../components/FormAlert';
import { NewPasswordForm } from '../components/NewPasswordForm';

type Step =
  | { name: 'email' }
  | { name: 'code'; email: string; token: string }
  | { name: 'password'; email: string; resetToken: string };

function unavailable(error: unknown, what: string): string {
  return error instanceof ApiError && (error.status >= 500 || error.status === 0)
    ? `We could not ${what} right now. Please try again in a moment.`
    : errorMessage(error);
}

function EmailStep({ onSent }: { onSent: (email: string, token: string) => void }) {
  const [formError, setFormError] = useState<ReactNode>(null);
  const form = useForm({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { email: '' },
    validate: { email: emailError },
  });
  const mutation = useMutation({ mutationFn: requestPasswordReset });

  const onSubmit = form.onSubmit(async ({ email }) => {
    setFormError(null);
    const trimmed = email.trim();
    try {
      const res = await mutation.mutateAsync(trimmed);
      onSent(trimmed, res.token);
    } catch (error) {
      if (applyFieldErrors(form, error)) return;
      if (error instanceof ApiError && error.code === ErrorCode.RATE_LIMITED) {
        setFormError('Too many requests. Wait a few minutes, then try again.');
        return;
      }
      setFormError(unavailable(error, 'send the code'));
    }
  });

  return (
    <>
      <AuthHeading title="Reset your password">
        Enter the e-mail of your account. We will send you a 6-digit code to confirm it is you.
      </AuthHeading>
      {formError && <FormAlert>{formError}</FormAlert>}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            required
            autoFocus
            {...form.getInputProps('email')}
          />
          <Button type="submit" fullWidth size="md" loading={form.submitting}>
            Send code
          </Button>
        </Stack>
      </form>
    </>
  );
}

const codeMessages: Partial<Record<string, string>> = {
  [ErrorCode.INVALID_CODE]: 'That code is not right. Check the e-mail we sent and try again.',
  [ErrorCode.CODE_EXPIRED]: 'This code has expired. Send a new code and enter it here.',
  [ErrorCode.TOO_MANY_ATTEMPTS]: 'Too many wrong codes. Send a new code, then try again.',
  [ErrorCode.INVALID_TOKEN]: 'This reset request has expired. Send a new code and enter it here.',
  [ErrorCode.RATE_LIMITED]: 'Too many attempts. Try again in a few minutes.',
};

function CodeStep({
  email,
  token,
  onVerified,
  onResent,
  onRestart,
}: {
  email: string;
  token: string;
  onVerified: (resetToken: string) => void;
  onResent: (token: string) => void;
  onRestart: () => void;
}) {
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const verify = useMutation({
    mutationFn: (value: string) => verifyPasswordResetCode(value, token),
    onSuccess: (res) => onVerified(res.token),
    onError: (error) => {
      const known = error instanceof ApiError ? codeMessages[error.code] : undefined;
      setProblem(known ?? unavailable(error, 'check the code'));
    },
  });

  const resend = useMutation({
    mutationFn: () => requestPasswordReset(email),
    onSuccess: (res) => {
      onResent(res.token);
      setCode('');
      setProblem(null);
      setNotice({ kind: 'success', text: `We sent a new code to ${email}.` });
    },
    onError: (error) =>
      setNotice({
        kind: 'error',
        text:
          error instanceof ApiError && error.code === ErrorCode.RATE_LIMITED
            ? 'Too many requests. Wait a few minutes before asking for another code.'
            : unavailable(error, 'send a new code'),
      }),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const err = codeError(code);
    setProblem(err);
    if (!err) verify.mutate(code);
  };

  return (
    <>
      <AuthHeading title="Enter the code">
        If an account exists for <strong>{email}</strong>, we sent it a 6-digit code. Enter it
        below.
      </AuthHeading>
      {notice && <FormAlert kind={notice.kind}>{notice.text}</FormAlert>}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="lg">
          <CodeInput
            label="Verification code"
            value={code}
            onChange={(value) => {
              setCode(value);
              if (problem) setProblem(null);
            }}
            error={problem}
            autoFocus
          />
          <Button type="submit" fullWidth size="md" loading={verify.isPending}>
            Continue
          </Button>
        </Stack>
      </form>
      <Group gap="sm" justify="center" mt="lg">
        <Button
          variant="subtle"
          size="sm"
          loading={resend.isPending}
          onClick={() => resend.mutate()}
        >
          Send a new code
        </Button>
        <Button variant="subtle" color="gray" size="sm" onClick={onRestart}>
          Use a different e-mail
        </Button>
      </Group>
    </>
  );
}

/**
 * /forgot-password in three steps: e-mail (POST /v1/rest-auth/password/reset/), code
 * (POST .../reset/identity/), new password (POST .../reset/confirm/).
 */
export function ForgotPasswordPage() {
  const [step, setStep] = useState<Step>({ name: 'email' });

  return (
    <>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" mb={4}>
        Step {step.name === 'email' ? 1 : step.name === 'code' ? 2 : 3} of 3
      </Text>
      {step.name === 'email' && (
        <EmailStep onSent={(email, token) => setStep({ name: 'code', email, token })} />
      )}
      {step.name === 'code' && (
        <CodeStep
          email={step.email}
          token={step.token}
          onVerified={(resetToken) => setStep({ name: 'password', email: step.email, resetToken })}
          onResent={(token) => setStep({ ...step, token })}
          onRestart={() => setStep({ name: 'email' })}
        />
      )}
      {step.name === 'password' && (
        <>
          <AuthHeading title="Choose a new password">
            Pick a password you do not use anywhere else.
          </AuthHeading>
          <NewPasswordForm token={step.resetToken} email={step.email} />
        </>
      )}
      {/* Once the code is verified the user is choosing a new password: no way "back" here. */}
      {step.name !== 'password' && (
        <Text ta="center" size="sm" mt="lg">
          Remembered it?{' '}
          <Anchor component={Link} to="/login" fw={600}>
            Back to sign in
          </Anchor>
        </Text>
      )}
    </>
  );
}
