import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { NewPasswordFields } from '../../../lib/account-fields';
import { ErrorCode } from '../../../lib/error-codes';
import { ApiError, errorMessage } from '../../../lib/api';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { ProblemAlert } from '../../../lib/form-parts';
import { toast } from '../../../lib/toasts';
import { confirmError, newPasswordError, requiredError } from '../../../lib/validation';
import { useChangePassword, type PasswordChangeBody } from '../api/profile-api';

export const PASSWORD_CHANGED = 'Password changed.';
export const WRONG_PASSWORD_MESSAGE = 'This is not your current password. Check it and try again.';

/** POST /v1/rest-auth/password/change/; other sessions end, this one stays signed in. */
export function PasswordChangeForm({ email }: { email: string }) {
  const change = useChangePassword();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<PasswordChangeBody>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { old_password: '', new_password1: '', new_password2: '' },
    validate: {
      old_password: requiredError('Enter your current password.'),
      new_password1: (value, values) =>
        newPasswordError(value, email) ??
        (value && value === values.old_password
          ? 'Choose a password different from the current one.'
          : null),
      new_password2: (value, values) => confirmError(value, values.new_password1),
    },
  });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      await change.mutateAsync(values);
      form.reset();
      toast.success(PASSWORD_CHANGED);
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.WRONG_PASSWORD) {
        form.setFieldError('old_password', WRONG_PASSWORD_MESSAGE);
        return;
      }
      if (applyFieldErrors(form, error, { password: 'new_password1' })) return;
      if (error instanceof ApiError && error.code === ErrorCode.WEAK_PASSWORD) {
        form.setFieldError('new_password1', error.message);
        return;
      }
      setFormError(
        error instanceof ApiError && error.code === ErrorCode.RATE_LIMITED
          ? 'Too many attempts. Try again in a few minutes.'
          : error instanceof ApiError && (error.status >= 500 || error.status === 0)
            ? 'Your password could not be changed right now. Please try again in a moment.'
            : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          You stay signed in here; every other device and browser is signed out.
        </Text>
        <ProblemAlert>{formError}</ProblemAlert>
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          required
          {...form.getInputProps('old_password')}
        />
        <NewPasswordFields
          password={form.getInputProps('new_password1')}
          confirm={form.getInputProps('new_password2')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
