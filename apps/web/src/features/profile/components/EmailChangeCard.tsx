import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CODE_TTL_MINUTES } from '@portolan/contract';
import { IconMailForward } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { CodeInput } from '../../../lib/code-input';
import { ErrorCode } from '../../../lib/error-codes';
import { ProblemAlert } from '../../../lib/form-parts';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { isStepUpRequired } from '../../../lib/step-up';
import { toast } from '../../../lib/toasts';
import { codeError, CODE_LENGTH, emailError, requiredError } from '../../../lib/validation';
import { useConfirmEmailChange, useRequestEmailChange } from '../api/email-change-api';

export const EmailChangeMessages = {
  same: 'This is already your e-mail address.',
  missing: 'Enter your new e-mail address.',
  unavailable: 'This could not be done right now. Please try again in a moment.',
  tooMany: 'Too many requests for now. Try again later.',
  changed: (email: string) => `Your e-mail address is now ${email}.`,
} as const;

interface RequestValues {
  new_email: string;
  password: string;
}

type Step =
  | { kind: 'idle' }
  /** The new address and the password; `notice`: why the user is back here. */
  | { kind: 'request'; email: string; notice?: string; emailError?: string }
  | { kind: 'code'; email: string };

/** A failure said in words: nothing when the step-up dialog was closed (nothing went wrong). */
function failureText(error: unknown): string | null {
  if (isStepUpRequired(error)) return null;
  if (error instanceof ApiError && error.code === ErrorCode.RATE_LIMITED) {
    return EmailChangeMessages.tooMany;
  }
  if (error instanceof ApiError && (error.status >= 500 || error.status === 0)) {
    return EmailChangeMessages.unavailable;
  }
  return errorMessage(error);
}

function RequestForm({
  current,
  step,
  onSent,
  onCancel,
}: {
  current: string;
  step: Extract<Step, { kind: 'request' }>;
  onSent: (email: string) => void;
  onCancel: () => void;
}) {
  const request = useRequestEmailChange();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<RequestValues>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { new_email: step.email, password: '' },
    initialErrors: step.emailError ? { new_email: step.emailError } : {},
    validate: {
      new_email: (value) => {
        if (!value.trim()) return EmailChangeMessages.missing;
        if (value.trim().toLowerCase() === current.toLowerCase()) return EmailChangeMessages.same;
        return emailError(value);
      },
      password: requiredError('Enter your password.'),
    },
  });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const sent = await request.mutateAsync({
        new_email: values.new_email.trim(),
        password: values.password,
      });
      onSent(sent.email);
    } catch (error) {
      if (applyFieldErrors(form, error)) return;
      setFormError(failureText(error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change your e-mail address">
      <Stack gap="md">
        <ProblemAlert>{formError ?? step.notice}</ProblemAlert>
        <TextInput
          label="New e-mail address"
          type="email"
          autoComplete="email"
          required
          autoFocus
          {...form.getInputProps('new_email')}
        />
        <PasswordInput
          label="Your password"
          description="To confirm it is you asking."
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={request.isPending}>
            Send code
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function CodeForm({
  email,
  onBack,
  onDone,
}: {
  email: string;
  /** To the first step again, with why (a new code is needed, or the address is taken). */
  onBack: (why?: { notice?: string; emailError?: string }) => void;
  onDone: () => void;
}) {
  const confirm = useConfirmEmailChange();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const problem = codeError(code);
    setFieldError(problem);
    if (problem) return;
    confirm.mutate(code, {
      onSuccess: (res) => {
        toast.success(EmailChangeMessages.changed(res.email));
        onDone();
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return setFormError(failureText(error));
        switch (error.code) {
          case ErrorCode.INVALID_CODE:
          case ErrorCode.CODE_EXPIRED:
            return setFieldError(error.fieldErrors[0]?.message ?? error.message);
          case ErrorCode.TOO_MANY_ATTEMPTS:
            return onBack({ notice: error.message });
          case ErrorCode.EMAIL_TAKEN:
            return onBack({ emailError: error.message });
          default:
            return setFormError(failureText(error));
        }
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Confirm your new e-mail address">
      <Stack gap="md">
        <Text size="sm">
          We sent a {CODE_LENGTH}-digit code to{' '}
          <Text span fw={600} style={{ overflowWrap: 'anywhere' }}>
            {email}
          </Text>
          . Enter it here to make it your sign-in address; it expires in {CODE_TTL_MINUTES} minutes.
        </Text>
        <ProblemAlert>{formError}</ProblemAlert>
        <CodeInput
          label="Code from the e-mail"
          value={code}
          onChange={(next) => {
            setCode(next);
            if (fieldError) setFieldError(null);
          }}
          error={fieldError}
          autoFocus
        />
        <Group justify="space-between" gap="sm">
          <Button variant="subtle" onClick={() => onBack()}>
            Send a new code
          </Button>
          <Button type="submit" loading={confirm.isPending}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * My Settings → Profile, the e-mail address: the current one, then (issue 20 item 7) a new one
 * with the password, and the 6-digit code sent there, which switches the account to it.
 */
export function EmailChangeCard({ email }: { email: string }) {
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  if (step.kind === 'request') {
    return (
      <RequestForm
        // A fresh form each time it opens (the address kept when coming back from the code).
        key={`${step.email}|${step.notice ?? ''}|${step.emailError ?? ''}`}
        current={email}
        step={step}
        onSent={(sent) => setStep({ kind: 'code', email: sent })}
        onCancel={() => setStep({ kind: 'idle' })}
      />
    );
  }
  if (step.kind === 'code') {
    return (
      <CodeForm
        email={step.email}
        onBack={(why) => setStep({ kind: 'request', email: step.email, ...why })}
        onDone={() => setStep({ kind: 'idle' })}
      />
    );
  }
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text style={{ overflowWrap: 'anywhere' }}>{email}</Text>
      <Button
        variant="default"
        leftSection={<IconMailForward size={16} aria-hidden="true" />}
        onClick={() => setStep({ kind: 'request', email: '' })}
      >
        Change e-mail address
      </Button>
    </Group>
  );
}
