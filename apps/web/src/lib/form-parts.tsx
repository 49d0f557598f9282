import { Alert, Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * What went wrong with a whole form, an upload or a switch (not one field), announced to screen
 * readers; nothing while there is no problem.
 */
export function ProblemAlert({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {children}
    </Alert>
  );
}

/** The submit button of a form that edits something saved: usable once something changed. */
export function SaveChangesButton({
  form,
}: {
  form: { submitting: boolean; isDirty: () => boolean };
}) {
  return (
    <Group justify="flex-end">
      <Button type="submit" loading={form.submitting} disabled={!form.isDirty()}>
        Save changes
      </Button>
    </Group>
  );
}

/** The end of a form that creates something: "Cancel" goes back to `cancelTo`, then the submit. */
export function CreateFormActions({
  cancelTo,
  submitLabel,
  submitting,
}: {
  cancelTo: string;
  submitLabel: string;
  submitting: boolean;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button component={Link} to={cancelTo} variant="default">
        Cancel
      </Button>
      <Button type="submit" loading={submitting}>
        {submitLabel}
      </Button>
    </Group>
  );
}
