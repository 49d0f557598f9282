import { Button, Group, Radio, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  SHARE_EXPIRY_CHOICES,
  type ModuleCode,
  type ShareExpiryChoice,
  type ShareLinkCreated,
} from '@portolan/contract';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-error';
import { ErrorCode } from '../../../lib/error-codes';
import { ProblemAlert } from '../../../lib/form-parts';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { useCreateShareLink } from '../api/share-links-api';
import { dayOf, expiresAtFor, expiryDayError, lastExpiryDay } from '../expiry';

interface Values {
  expiry: ShareExpiryChoice;
  date: string;
}

/** Why a link could not be made, in words that say what to do (field errors go to the fields). */
function failureSentence(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  if (error.status === 0) return error.message;
  if (error.code === ErrorCode.SHARE_LINK_LIMIT) return error.message;
  if (error.status === 400 && error.fieldErrors.length > 0)
    return error.fieldErrors.map((d) => d.message).join(' ');
  if (error.status === 404)
    return 'This workspace was not found, or you are no longer one of its members. Reload the page.';
  if (error.status >= 500)
    return 'The server ran into a problem on its side. Try again in a moment.';
  return error.message || 'The link could not be created. Please try again.';
}

/** The expiry of a new link (never, 1, 7 or 30 days, or the end of a chosen day) and Create. */
export function CreateShareLinkForm({
  clientId,
  module,
  onCreated,
}: {
  clientId: string;
  module: ModuleCode;
  onCreated: (link: ShareLinkCreated) => void;
}) {
  const create = useCreateShareLink(clientId);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { expiry: 'none', date: '' },
    validate: {
      date: (value, values) =>
        values.expiry === 'date' ? expiryDayError(value, new Date()) : null,
    },
  });
  const today = new Date();

  const submit = async (values: Values) => {
    setProblem(null);
    try {
      const link = await create.mutateAsync({
        module,
        expires_at: expiresAtFor(values.expiry, values.date, new Date()),
      });
      onCreated(link);
    } catch (error) {
      const onField =
        error instanceof ApiError &&
        applyFieldErrors(form, error, {
          expires_at: values.expiry === 'date' ? 'date' : 'expiry',
        });
      if (!onField) setProblem(failureSentence(error));
    }
  };

  return (
    <form
      onSubmit={(event) => form.onSubmit(submit)(event)}
      noValidate
      aria-label="Create a share link"
    >
      <Stack gap="sm">
        <Radio.Group label="The link expires" {...form.getInputProps('expiry')}>
          <Group gap="md" mt={6}>
            {SHARE_EXPIRY_CHOICES.map((choice) => (
              <Radio key={choice.value} value={choice.value} label={choice.label} />
            ))}
          </Group>
        </Radio.Group>
        {form.values.expiry === 'date' && (
          <TextInput
            type="date"
            label="Expiry date"
            description="The link works until the end of this day."
            min={dayOf(today)}
            max={lastExpiryDay(today)}
            withAsterisk
            {...form.getInputProps('date')}
          />
        )}
        <ProblemAlert>{problem}</ProblemAlert>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Create link
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
