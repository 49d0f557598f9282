import { TextInput } from '@mantine/core';
import { useForm, type FormErrors, type GetInputPropsReturnType } from '@mantine/form';
import { withAriaInvalid } from './forms';
import { LogoField } from './logo-field';
import { NAME_MAX_LENGTH } from './tenant-api';
import { tenantNameError } from './tenant-forms';

type Tenant = 'organization' | 'workspace';

export interface NameLogoValues {
  name: string;
  logo: string | null;
}

/** The form of an organization's or a workspace's name and logo; a new one starts empty. */
export function useNameLogoForm(what: Tenant, initial: NameLogoValues = { name: '', logo: null }) {
  return useForm<NameLogoValues>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: initial,
    validate: { name: tenantNameError(what) },
  });
}

/** What creates one: the name trimmed, the logo only when one was uploaded. */
export function newNameLogoBody(values: NameLogoValues): { name: string; logo?: string } {
  return { name: values.name.trim(), ...(values.logo ? { logo: values.logo } : {}) };
}

/** The part of a Mantine form (useForm) that the name and logo fields read and write. */
interface NameLogoForm {
  getInputProps: (path: 'name') => GetInputPropsReturnType;
  getValues: () => NameLogoValues;
  setFieldValue: (path: 'logo', value: string | null) => void;
  errors: FormErrors;
}

/**
 * The name and the logo of an organization or a workspace, as every form that creates or edits
 * one asks for them. With `readOnly` they are shown, not changed (a role that may only look).
 */
export function NameLogoFields({
  form,
  what,
  readOnly = false,
  description,
  autoFocus = false,
}: {
  form: NameLogoForm;
  what: Tenant;
  readOnly?: boolean;
  description?: string;
  /** Marks the name for the first focus (Mantine's data-autofocus). */
  autoFocus?: boolean;
}) {
  return (
    <>
      <TextInput
        label={what === 'organization' ? 'Organization name' : 'Workspace name'}
        required
        maxLength={NAME_MAX_LENGTH}
        description={description}
        readOnly={readOnly}
        data-autofocus={autoFocus || undefined}
        {...form.getInputProps('name')}
      />
      <LogoField
        name={form.getValues().name}
        value={form.getValues().logo}
        onChange={(url) => form.setFieldValue('logo', url)}
        error={form.errors.logo as string | undefined}
        disabled={readOnly}
      />
    </>
  );
}
