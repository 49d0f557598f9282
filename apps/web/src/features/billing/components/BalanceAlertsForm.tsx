import { Button, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MAX_LOW_BALANCE_THRESHOLDS, type BalanceAlerts } from '@portolan/contract';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { ProblemAlert } from '../../../lib/form-parts';
import { resetToSaved } from '../../../lib/forms';
import { isStepUpRequired } from '../../../lib/step-up';
import { toast } from '../../../lib/toasts';
import { useSaveBalanceAlerts } from '../api/balance-alerts-api';
import { toMajorUnits } from '../format';
import { minorOf, moneySettingProblem } from '../money-settings';
import { MoneyInput } from './MoneyInput';

export const BalanceAlertsMessages = {
  saved: 'The low-balance alerts are saved.',
  cleared: 'No low-balance alerts now.',
  duplicate: 'Give each threshold once.',
  unavailable: 'The alerts could not be saved right now. Please try again in a moment.',
} as const;

interface Row {
  key: string;
  amount: number | string;
}
interface Values {
  thresholds: Row[];
}

let rowCount = 0;
const row = (amount: number | string): Row => ({ key: `t${(rowCount += 1)}`, amount });

const valuesOf = (alerts: BalanceAlerts): Values => ({
  thresholds: alerts.thresholds.map((t) => row(toMajorUnits(t, alerts.currency))),
});

/** `thresholds.2` (maybe behind "body.") → 2; the list itself → -1; anything else → null. */
function thresholdIndex(field: string): number | null {
  const m = /(?:^|\.)thresholds(?:\.(\d+))?$/.exec(field);
  if (!m) return null;
  return m[1] === undefined ? -1 : Number(m[1]);
}

/**
 * Low-balance alerts: up to MAX_LOW_BALANCE_THRESHOLDS amounts; when a charge takes the balance
 * below one, the owners and admins are told in the bell and by e-mail (once, until it rises above
 * it again).
 */
export function BalanceAlertsForm({ orgId, alerts }: { orgId: string; alerts: BalanceAlerts }) {
  const save = useSaveBalanceAlerts(orgId);
  const [problem, setProblem] = useState<string | null>(null);
  const { currency } = alerts;
  const form = useForm<Values>({
    initialValues: valuesOf(alerts),
    validate: {
      thresholds: {
        amount: (value, values, path) => {
          const problem = moneySettingProblem(value, currency, 'threshold');
          if (problem) return problem;
          const index = Number(path.split('.')[1]);
          const minor = minorOf(value, currency);
          const earlier = values.thresholds
            .slice(0, index)
            .some((t) => minorOf(t.amount, currency) === minor);
          return earlier ? BalanceAlertsMessages.duplicate : null;
        },
      },
    },
  });
  const rows = form.getValues().thresholds;
  const full = rows.length >= MAX_LOW_BALANCE_THRESHOLDS;

  const onSubmit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      const saved = await save.mutateAsync({
        thresholds: values.thresholds.map((t) => minorOf(t.amount, currency) ?? 0),
      });
      resetToSaved(form, valuesOf(saved));
      toast.success(
        saved.thresholds.length > 0 ? BalanceAlertsMessages.saved : BalanceAlertsMessages.cleared,
      );
    } catch (error) {
      if (isStepUpRequired(error)) return;
      let placed = false;
      const listProblems: string[] = [];
      if (error instanceof ApiError) {
        for (const { field, message } of error.fieldErrors) {
          const index = thresholdIndex(field);
          if (index === null) continue;
          if (index < 0) listProblems.push(message);
          else form.setFieldError(`thresholds.${index}.amount`, message);
          placed = true;
        }
      }
      if (placed) {
        setProblem(listProblems.join(' ') || null);
        return;
      }
      setProblem(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? BalanceAlertsMessages.unavailable
          : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Low-balance alerts">
      <Stack gap="md">
        <ProblemAlert>{problem}</ProblemAlert>
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No alerts: nobody is told when the balance runs low.
          </Text>
        ) : (
          <Stack gap="sm">
            {rows.map((r, i) => (
              <Group key={r.key} gap="xs" align="flex-end" wrap="nowrap">
                <MoneyInput
                  currency={currency}
                  label={`Threshold ${i + 1}`}
                  required
                  style={{ flex: '1 1 auto', maxWidth: 240 }}
                  {...form.getInputProps(`thresholds.${i}.amount`)}
                />
                <Button
                  variant="default"
                  c="red.9"
                  px="sm"
                  // Lined up with the input, not with its error below.
                  mb={form.errors[`thresholds.${i}.amount`] ? 22 : 0}
                  aria-label={`Remove threshold ${i + 1}`}
                  onClick={() => form.removeListItem('thresholds', i)}
                >
                  <IconTrash size={16} aria-hidden="true" />
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        <Group justify="space-between" gap="sm">
          <Stack gap={2}>
            <Button
              variant="default"
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              disabled={full}
              onClick={() => form.insertListItem('thresholds', row(''))}
            >
              Add threshold
            </Button>
            {full && (
              <Text size="xs" c="dimmed">
                At most {MAX_LOW_BALANCE_THRESHOLDS} thresholds.
              </Text>
            )}
          </Stack>
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
            Save alerts
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
