import { Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { User } from '@portolan/contract';
import { useState } from 'react';
import { PersonNameFields } from '../../../lib/account-fields';
import { ApiError, errorMessage } from '../../../lib/api';
import { applyFieldErrors, resetToSaved, withAriaInvalid } from '../../../lib/forms';
import { ProblemAlert, SaveChangesButton } from '../../../lib/form-parts';
import { toast } from '../../../lib/toasts';
import { requiredError } from '../../../lib/validation';
import { useUpdateUser } from '../api/profile-api';

const PHONE_RE = /^[+\d][\d\s().-]*$/;

interface Values {
  first_name: string;
  last_name: string;
  phone: string;
}

/** First name, last name and phone (PATCH /v1/rest-auth/user/). */
export function ProfileDetailsForm({ user }: { user: User }) {
  const update = useUpdateUser();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: {
      first_name: user.first_name,
      last_name: user.last_name,
      phone: user.phone ?? '',
    },
    validate: {
      first_name: requiredError('Enter your first name.'),
      last_name: requiredError('Enter your last name.'),
      phone: (value) =>
        !value.trim() || PHONE_RE.test(value.trim())
          ? null
          : 'Enter a phone number with digits, spaces and + ( ) - only.',
    },
  });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    const body = {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      phone: values.phone.trim(),
    };
    try {
      const saved = await update.mutateAsync(body);
      resetToSaved(form, {
        first_name: saved.first_name,
        last_name: saved.last_name,
        phone: saved.phone ?? '',
      });
      toast.success('Your profile has been saved.');
    } catch (error) {
      if (applyFieldErrors(form, error)) return;
      setFormError(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? 'Your changes could not be saved right now. Please try again in a moment.'
          : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <ProblemAlert>{formError}</ProblemAlert>
        <TextInput
          label="E-mail"
          value={user.email}
          readOnly
          disabled
          description="Change it under E-mail address, below."
        />
        <PersonNameFields form={form} />
        <TextInput
          label="Phone"
          type="tel"
          autoComplete="tel"
          description="Optional. Shown to the members of your workspaces."
          {...form.getInputProps('phone')}
        />
        <SaveChangesButton form={form} />
      </Stack>
    </form>
  );
}
