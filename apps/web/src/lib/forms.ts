import type { FormErrors } from '@mantine/form';
import { ApiError } from './api-error';

/** `body.email` or `email` → `email`. */
function fieldName(field: string): string {
  return field.replace(/^(body|query|params)\./, '');
}

/**
 * Puts the server's validation details (`details[].field`) on the matching form fields.
 * `aliases` maps a server field to a form field when the names differ. Returns whether any
 * field got an error, so the caller can fall back to a form-level message.
 */
export interface FormWithErrors {
  getValues: () => object;
  setErrors: (update: (previous: FormErrors) => FormErrors) => void;
}

export function applyFieldErrors(
  form: FormWithErrors,
  error: unknown,
  aliases: Record<string, string> = {},
): boolean {
  if (!(error instanceof ApiError)) return false;
  const values = form.getValues();
  const errors: Record<string, string> = {};
  for (const { field, message } of error.fieldErrors) {
    const name = fieldName(field);
    const target = aliases[name] ?? name;
    if (!(target in values)) continue;
    errors[target] = errors[target] ? `${errors[target]} ${message}` : message;
  }
  const applied = Object.keys(errors).length > 0;
  if (applied) form.setErrors((previous) => ({ ...previous, ...errors }));
  return applied;
}

/**
 * For useForm's `enhanceGetInputProps`: marks a field with an error as `aria-invalid`, which
 * Mantine's PasswordInput does not do by itself.
 */
export function withAriaInvalid({ inputProps }: { inputProps: { error?: unknown } }) {
  return { 'aria-invalid': inputProps.error ? true : undefined };
}

/**
 * After a save: what the server kept becomes both the form's values and its starting point, so
 * the form is clean again and "Save changes" waits for the next change.
 */
export function resetToSaved<Values>(
  form: {
    setInitialValues: (values: Values) => void;
    setValues: (values: Values) => void;
    resetDirty: () => void;
  },
  saved: Values,
) {
  form.setInitialValues(saved);
  form.setValues(saved);
  form.resetDirty();
}
