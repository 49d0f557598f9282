import { Card, Loader, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import {
  RELEASE_DATE_MAX_YEAR,
  RELEASE_DATE_MIN_YEAR,
  RELEASE_NOTE_MAX_LENGTH,
  RELEASE_NOTE_TAGS,
  RELEASE_NOTE_VERSION_MAX_LENGTH,
  type ReleaseNoteCreate,
} from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { ErrorCode } from '../../../lib/error-codes';
import { CreateFormActions, ProblemAlert } from '../../../lib/form-parts';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { releaseNotePreviewQueryOptions } from '../api/preview-api';
import { ReleaseNoteBody } from './ReleaseNoteBody';

export type ReleaseNoteValues = ReleaseNoteCreate;

const DATE_RE = /^(\d{4})-\d{2}-\d{2}$/;
const PREVIEW_DELAY_MS = 400;

function versionError(value: string): string | null {
  const version = value.trim();
  if (!version) return 'Enter the version.';
  if (version.length > RELEASE_NOTE_VERSION_MAX_LENGTH)
    return `Keep the version to ${RELEASE_NOTE_VERSION_MAX_LENGTH} characters or fewer.`;
  return null;
}

function dateError(value: string): string | null {
  const m = DATE_RE.exec(value);
  if (!m) return 'Enter the release date.';
  const year = Number(m[1]);
  if (year < RELEASE_DATE_MIN_YEAR || year > RELEASE_DATE_MAX_YEAR)
    return `Give a release date between ${RELEASE_DATE_MIN_YEAR} and ${RELEASE_DATE_MAX_YEAR}.`;
  return null;
}

function noteError(value: string): string | null {
  if (!value.trim()) return 'Write the release note.';
  if (value.length > RELEASE_NOTE_MAX_LENGTH)
    return `Keep the release note to ${RELEASE_NOTE_MAX_LENGTH} characters or fewer.`;
  return null;
}

/** A failed save in words for the form's alert, when it is not about one field. */
function saveProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === ErrorCode.PERMISSION_DENIED)
      return 'Only platform administrators can manage release notes.';
    if (error.code === ErrorCode.NOT_FOUND)
      return 'This release note no longer exists. Go back to the list.';
    if (error.status === 0 || error.status >= 500)
      return 'The release note could not be saved right now. Please try again in a moment.';
  }
  return errorMessage(error);
}

/** The note as readers will see it: the server's sanitized HTML, a moment after each change. */
function Preview({ html }: { html: string }) {
  const [settled] = useDebouncedValue(html, PREVIEW_DELAY_MS);
  const preview = useQuery(releaseNotePreviewQueryOptions(settled));
  const shown = settled.trim() ? preview.data?.release_note : '';
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="release-note-preview">
      <Stack gap="xs">
        <Title order={2} fz="sm" id="release-note-preview">
          Preview
        </Title>
        {preview.isError ? (
          <Text size="sm" c="red.9">
            The preview could not be made: {errorMessage(preview.error)}
          </Text>
        ) : shown ? (
          <ReleaseNoteBody html={shown} />
        ) : preview.isFetching ? (
          <Loader size="xs" aria-label="Making the preview" />
        ) : (
          <Text size="sm" c="dimmed">
            The note shows here as readers will see it, as you write.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/**
 * A release note's version, date and HTML, with a live preview; the server's answers land on
 * their fields (a version already used, a bad date), anything else in the alert.
 */
export function ReleaseNoteForm({
  initialValues,
  submitLabel,
  onSave,
}: {
  initialValues: ReleaseNoteValues;
  submitLabel: string;
  onSave: (values: ReleaseNoteValues) => Promise<unknown>;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ReleaseNoteValues>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues,
    validate: { version: versionError, release_date: dateError, release_note: noteError },
  });

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      await onSave({
        version: values.version.trim(),
        release_date: values.release_date,
        release_note: values.release_note,
      });
    } catch (error) {
      if (applyFieldErrors(form, error)) return;
      setFormError(saveProblem(error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Release note">
      <Stack gap="md">
        <ProblemAlert>{formError}</ProblemAlert>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Version"
            description="As readers know it, for example v1.7.4."
            required
            maxLength={RELEASE_NOTE_VERSION_MAX_LENGTH}
            {...form.getInputProps('version')}
          />
          <TextInput
            label="Release date"
            description="The day this version was released."
            type="date"
            required
            min={`${RELEASE_DATE_MIN_YEAR}-01-01`}
            max={`${RELEASE_DATE_MAX_YEAR}-12-31`}
            {...form.getInputProps('release_date')}
          />
        </SimpleGrid>
        <Textarea
          label="Release note"
          description={`HTML. Kept: ${RELEASE_NOTE_TAGS.map((t) => `<${t}>`).join(' ')}; links open in a new tab. Anything else is removed when saved.`}
          required
          rows={14}
          resize="vertical"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('release_note')}
        />
        <Preview html={form.getValues().release_note} />
        <CreateFormActions
          cancelTo="/ps/release-notes"
          submitLabel={submitLabel}
          submitting={form.submitting}
        />
      </Stack>
    </form>
  );
}
