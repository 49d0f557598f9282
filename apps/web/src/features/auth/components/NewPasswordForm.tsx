import { Anchor, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { NewPasswordFields } from '../../../lib/account-fields';
import { ErrorCode } from '../../../lib/error-codes';
import { ApiError, errorMessage } from '../../../lib/api';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { toast } from '../../../lib/toasts';
import { confirmError, newPasswordError } from '../../../lib/validation';
import { confirmPasswordReset } from '../api/auth-api';
import { FormAlert } from './FormAlert';

export const PASSWORD_RESET_DONE =
  'Your password has been changed. Sign in with your new password.';

interface Values {
  password: string;
  confirm: string;
}

/** The last step of a password reset: the new password, sent with the reset token. */
export function NewPasswordForm({ token, email }: { token: string; email?: string }) {
  const navigate = useNavigate();
  const [formError, setFormError] = useState<ReactNode>(null);
  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (value) => newPasswordError(value, email),
      confirm: (value, values) => confirmError(value, values.password),
    },
  });

  const mutation = useMutation({
    mutationFn: (password: string) => confirmPasswordReset(token, password),
  });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      await mutation.mutateAsync(values.password);
      toast.success(PASSWORD_RESET_DONE);
      void navigate('/login', { replace: true, state: email ? { email } : undefined });
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.INVALID_TOKEN) {
        setFormError(
          <>
            This reset link has expired or was already used.{' '}
            <Anchor component={Link} to="/forgot-password" inherit fw={600}>
              Start the reset again
            </Anchor>
            .
          </>,
        );
        return;
      }
      if (applyFieldErrors(form, error)) return;
      if (error instanceof ApiError && error.code === ErrorCode.WEAK_PASSWORD) {
        form.setFieldError('password', error.message);
        return;
      }
      setFormError(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? 'We could not change your password right now. Please try again in a moment.'
          : errorMessage(error),
      );
    }
  });

  return (
    <>
      {formError && <FormAlert>{formError}</FormAlert>}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <NewPasswordFields
            password={form.getInputProps('password')}
            confirm={form.getInputProps('confirm')}
            autoFocus
          />
          <Button type="submit" fullWidth size="md" loading={form.submitting}>
            Change password
          </Button>
        </Stack>
      </form>
    </>
  );
}
