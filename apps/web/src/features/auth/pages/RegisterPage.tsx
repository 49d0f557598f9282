import { Anchor, Button, Center, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useBillingStore } from '../../../lib/billing-store';
import { ErrorCode } from '../../../lib/error-codes';
import { NewPasswordFields, PersonNameFields } from '../../../lib/account-fields';
import { ApiError, errorMessage, loadFailureReason } from '../../../lib/api';
import { usePublicConfig } from '../../../lib/config';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { confirmError, emailError, newPasswordError, requiredError } from '../../../lib/validation';
import { loadActivation, saveActivation, type PendingActivation } from '../api/activation-storage';
import { register } from '../api/auth-api';
import { ActivationStep, loginLink } from '../components/ActivationStep';
import { AuthHeading } from '../../../lib/auth-heading';
import { FormAlert } from '../components/FormAlert';

interface RegisterValues {
  email: string;
  first_name: string;
  last_name: string;
  password1: string;
  password2: string;
}

/**
 * The answer is the same for a new address and for one that already has an account (the server
 * does not tell which), so the form always goes on to the code step: no "account exists" error.
 */
function RegistrationForm({
  onRegistered,
  pathQuery,
}: {
  onRegistered: (p: PendingActivation) => void;
  pathQuery: string | null;
}) {
  const [formError, setFormError] = useState<ReactNode>(null);
  const form = useForm<RegisterValues>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { email: '', first_name: '', last_name: '', password1: '', password2: '' },
    validate: {
      email: emailError,
      first_name: requiredError('Enter your first name.'),
      last_name: requiredError('Enter your last name.'),
      password1: (value, values) => newPasswordError(value, values.email),
      password2: (value, values) => confirmError(value, values.password1),
    },
  });

  const mutation = useMutation({
    mutationFn: (values: RegisterValues) =>
      register({
        email: values.email.trim(),
        password1: values.password1,
        password2: values.password2,
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
      }),
  });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const res = await mutation.mutateAsync(values);
      const pending = { token: res.token, email: res.email || values.email.trim() };
      saveActivation(pending);
      onRegistered(pending);
    } catch (error) {
      if (applyFieldErrors(form, error, { password: 'password1' })) return;
      if (error instanceof ApiError && error.code === ErrorCode.WEAK_PASSWORD) {
        form.setFieldError('password1', error.message);
        return;
      }
      if (error instanceof ApiError && error.code === ErrorCode.FEATURE_DISABLED) {
        setFormError('Registration is closed. Ask your organization for an invitation instead.');
        return;
      }
      if (error instanceof ApiError && error.code === ErrorCode.RATE_LIMITED) {
        setFormError('Too many attempts. Try again in a few minutes.');
        return;
      }
      setFormError(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? 'We could not create your account right now. Please try again in a moment.'
          : errorMessage(error),
      );
    }
  });

  return (
    <>
      <AuthHeading title="Create your account">
        It takes a minute. We will e-mail you a code to confirm your address.
      </AuthHeading>

      {formError && <FormAlert>{formError}</FormAlert>}

      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PersonNameFields form={form} />
          <NewPasswordFields
            label="Password"
            password={form.getInputProps('password1')}
            confirm={form.getInputProps('password2')}
          />
          <Button type="submit" fullWidth size="md" loading={form.submitting}>
            Create account
          </Button>
        </Stack>
      </form>

      <Text ta="center" size="sm" mt="lg">
        Already have an account?{' '}
        <Anchor component={Link} to={loginLink(pathQuery)} fw={600}>
          Sign in
        </Anchor>
      </Text>
    </>
  );
}

/**
 * /register: the registration form (POST /v1/rest-auth/registration/), then the code step
 * (PATCH /v1/rest-auth/registration/activation/). The pending activation survives a reload.
 */
export function RegisterPage() {
  const [pending, setPending] = useState<PendingActivation | null>(loadActivation);
  const [params] = useSearchParams();
  const pathQuery = params.get('path');
  const config = usePublicConfig();
  // Spec §4: the plan of /register?plan= is kept (only the four types) for the plans page.
  const planQuery = params.get('plan');
  useEffect(() => {
    if (planQuery !== null) useBillingStore.getState().setRegisterPlan(planQuery);
  }, [planQuery]);

  if (pending) return <ActivationStep pending={pending} onRestart={() => setPending(null)} />;

  if (config.isPending) {
    return (
      <Center py="xl" role="status" aria-label="Loading">
        <Loader aria-hidden="true" />
      </Center>
    );
  }

  if (config.isError) {
    return (
      <>
        <AuthHeading title="Create your account" />
        <FormAlert>
          We could not load the sign-up settings. {loadFailureReason(config.error)}
        </FormAlert>
        <Button fullWidth onClick={() => void config.refetch()}>
          Try again
        </Button>
      </>
    );
  }

  if (!config.data.features.registration) {
    return (
      <>
        <AuthHeading title="Registration is closed" />
        <Text mb="lg">
          New accounts cannot be created here. If your organization uses Portolan, ask one of its
          owners or admins to invite you; the invitation e-mail lets you set up your account.
          {config.data.support_email && (
            <>
              {' '}
              For anything else, write to{' '}
              <Anchor href={`mailto:${config.data.support_email}`}>
                {config.data.support_email}
              </Anchor>
              .
            </>
          )}
        </Text>
        <Button component={Link} to={loginLink(pathQuery)} fullWidth>
          Go to sign in
        </Button>
      </>
    );
  }

  return <RegistrationForm onRegistered={setPending} pathQuery={pathQuery} />;
}
