import { PasswordInput, SimpleGrid, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { PASSWORD_MIN_LENGTH } from './validation';

/**
 * First and last name side by side (one above the other on a phone), as registration and the
 * profile ask for them. `form` is a Mantine form (useForm) with `first_name` and `last_name`.
 */
export function PersonNameFields({
  form,
}: {
  form: { getInputProps: (path: 'first_name' | 'last_name') => GetInputPropsReturnType };
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
      <TextInput
        label="First name"
        autoComplete="given-name"
        required
        {...form.getInputProps('first_name')}
      />
      <TextInput
        label="Last name"
        autoComplete="family-name"
        required
        {...form.getInputProps('last_name')}
      />
    </SimpleGrid>
  );
}

/**
 * A new password and its confirmation (registration, password reset, password change), so the
 * rule shown and the browser's password manager hints are the same everywhere. `password` and
 * `confirm` are the fields' input props; the fields' names differ from form to form.
 */
export function NewPasswordFields({
  password,
  confirm,
  label = 'New password',
  autoFocus = false,
}: {
  password: GetInputPropsReturnType;
  confirm: GetInputPropsReturnType;
  /** The first field's label; the second is "Confirm" and the same words. */
  label?: 'Password' | 'New password';
  autoFocus?: boolean;
}) {
  return (
    <>
      <PasswordInput
        label={label}
        description={`At least ${PASSWORD_MIN_LENGTH} characters. A passphrase is best.`}
        autoComplete="new-password"
        required
        autoFocus={autoFocus}
        {...password}
      />
      <PasswordInput
        label={`Confirm ${label.toLowerCase()}`}
        autoComplete="new-password"
        required
        {...confirm}
      />
    </>
  );
}
