import {
  Alert,
  Button,
  Group,
  Modal,
  Progress,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ActivityAction } from '@portolan/contract';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-error';
import { isAbortError } from '../../../lib/download';
import { ProblemAlert } from '../../../lib/form-parts';
import { applyFieldErrors, withAriaInvalid } from '../../../lib/forms';
import { toast } from '../../../lib/toasts';
import {
  EXPORT_FORMAT_LABELS,
  exportActivities,
  type ExportFormat,
  type ExportProgress,
} from '../api/activities-export';
import { ACTIVITY_LABELS } from '../api/constants';

interface Values {
  format: ExportFormat;
  from_date: string;
  to_date: string;
}

const FORM_FIELDS = new Set<string>(['format', 'from_date', 'to_date']);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const numbers = new Intl.NumberFormat('en-US');

const dayError = (value: string) =>
  value && !DAY.test(value) ? 'Give a date as YYYY-MM-DD.' : null;

const activities = (n: number) => `${numbers.format(n)} ${n === 1 ? 'activity' : 'activities'}`;

/** What the export is doing: nothing yet, waiting for the server, or receiving rows. */
type Run = { state: 'idle' } | { state: 'starting' } | ({ state: 'receiving' } & ExportProgress);

/** Why an export failed, and what to do about it (a 400's fields are shown at the fields). */
function failureSentence(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please export again.';
  if (error.status === 0) return error.message;
  if (error.status === 403)
    return 'Only owners and admins of the organization can export its activities. If your role has just changed, reload the page.';
  if (error.status === 404)
    return 'This organization was not found, or you are no longer one of its members. Reload the page.';
  if (error.status >= 500)
    return 'The server ran into a problem on its side. Try again in a moment; if it keeps failing, contact support.';
  return error.message || 'The server refused the export. Please check the fields and try again.';
}

/** The page's filters in words, for the note that they apply. */
function filtersNote(action: string | null, searchKey: string): string {
  const parts: string[] = [];
  if (action) parts.push(`the action “${ACTIVITY_LABELS[action as ActivityAction] ?? action}”`);
  if (searchKey) parts.push(`the search “${searchKey}”`);
  return parts.length > 0
    ? `The page’s filters apply: ${parts.join(' and ')}.`
    : 'No filter is set on the page: every action and every member is included.';
}

export interface ExportActivitiesModalProps {
  opened: boolean;
  onClose: () => void;
  orgId: string;
  /** The page's action filter and (debounced, trimmed) search: the export uses them. */
  action: string | null;
  searchKey: string;
}

/**
 * "Export activities": a format and a range of days, the page's filters applied. The file is
 * streamed with a progress bar (rows counted against X-Export-Count), then saved under the
 * server's name. Cancel (or closing the dialog) aborts it.
 */
export function ExportActivitiesModal({ opened, onClose, ...rest }: ExportActivitiesModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Export activities"
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* Mounted while open: a new opening starts afresh, and closing aborts a running export. */}
      <ExportForm onClose={onClose} {...rest} />
    </Modal>
  );
}

function ExportForm({
  onClose,
  orgId,
  action,
  searchKey,
}: Omit<ExportActivitiesModalProps, 'opened'>) {
  const [run, setRun] = useState<Run>({ state: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      controller.current?.abort();
    };
  }, []);

  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: { format: 'csv', from_date: '', to_date: '' },
    validate: {
      from_date: dayError,
      to_date: (value, values) =>
        dayError(value) ??
        (value && values.from_date && DAY.test(values.from_date) && value < values.from_date
          ? 'The end date must be on or after the start date.'
          : null),
    },
  });

  const running = run.state !== 'idle';

  const startExport = async (values: Values) => {
    if (controller.current) return; // one export at a time
    const abort = new AbortController();
    controller.current = abort;
    setProblem(null);
    setCancelled(false);
    setRun({ state: 'starting' });
    try {
      const { rows } = await exportActivities(
        orgId,
        { ...values, action, key: searchKey },
        {
          signal: abort.signal,
          onProgress: (progress) => {
            if (mounted.current) setRun({ state: 'receiving', ...progress });
          },
        },
      );
      toast.success(`Exported ${activities(rows)}`);
      onClose();
    } catch (error) {
      if (isAbortError(error)) {
        if (mounted.current) setCancelled(true);
        else toast.info('The export was cancelled. Nothing was saved.');
      } else if (mounted.current) {
        const fieldsShown = error instanceof ApiError && applyFieldErrors(form, error);
        const others =
          error instanceof ApiError && error.status === 400
            ? error.fieldErrors.filter((d) => !FORM_FIELDS.has(d.field.replace(/^query\./, '')))
            : [];
        if (others.length > 0) {
          setProblem(
            `The page’s action filter or search cannot be exported: ${others.map((d) => d.message).join(' ')} Change it on the page, then export again.`,
          );
        } else if (!fieldsShown) {
          setProblem(failureSentence(error));
        }
      }
    } finally {
      if (controller.current === abort) controller.current = null;
      if (mounted.current) setRun({ state: 'idle' });
    }
  };

  return (
    <form
      // form.onSubmit is made here, in the event: the handler uses refs (never during render).
      onSubmit={(event) => form.onSubmit(startExport)(event)}
      noValidate
      aria-label="Export activities"
    >
      <Stack gap="md">
        <Radio.Group label="Format" {...form.getInputProps('format')}>
          <Group gap="lg" mt={6}>
            {(Object.keys(EXPORT_FORMAT_LABELS) as ExportFormat[]).map((format) => (
              <Radio
                key={format}
                value={format}
                label={EXPORT_FORMAT_LABELS[format]}
                disabled={running}
              />
            ))}
          </Group>
        </Radio.Group>
        <Group grow align="flex-start" gap="sm">
          <TextInput
            type="date"
            label="From date"
            description="Empty: from the first activity"
            disabled={running}
            {...form.getInputProps('from_date')}
          />
          <TextInput
            type="date"
            label="To date"
            description="Empty: up to today"
            disabled={running}
            {...form.getInputProps('to_date')}
          />
        </Group>
        <Text size="sm" c="dimmed">
          Days are in UTC, both included. {filtersNote(action, searchKey)}
        </Text>

        {run.state !== 'idle' && <ExportProgressBar run={run} />}

        {cancelled && (
          <Alert color="blue" variant="light" role="status" title="Export cancelled">
            Nothing was saved. Export again whenever you are ready.
          </Alert>
        )}
        <ProblemAlert>{problem}</ProblemAlert>

        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={() => (running ? controller.current?.abort() : onClose())}
          >
            Cancel
          </Button>
          <Button type="submit" loading={running}>
            Export
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ExportProgressBar({ run }: { run: Exclude<Run, { state: 'idle' }> }) {
  const known = run.state === 'receiving' && run.total !== null;
  let text = 'Preparing the export…';
  let value = 0;
  if (run.state === 'receiving') {
    if (run.total !== null) {
      value = run.total === 0 ? 100 : Math.min(100, Math.floor((run.rows / run.total) * 100));
      text = `Exported ${numbers.format(run.rows)} of ${activities(run.total)}…`;
    } else {
      text = `Exported ${activities(run.rows)}…`;
    }
  }
  return (
    <Stack gap={6}>
      {known ? (
        <Progress value={value} aria-label="Export progress" />
      ) : (
        // Indeterminate: no value to announce, the bar only moves.
        <Progress.Root role="progressbar" aria-label="Export progress" aria-busy="true">
          <Progress.Section value={100} striped animated withAria={false} />
        </Progress.Root>
      )}
      <Text size="sm">{text}</Text>
    </Stack>
  );
}
