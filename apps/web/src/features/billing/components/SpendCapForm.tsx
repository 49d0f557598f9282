import { Button, Group, Radio, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { SpendCap } from '@portolan/contract';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { ProblemAlert } from '../../../lib/form-parts';
import { applyFieldErrors, resetToSaved } from '../../../lib/forms';
import { isStepUpRequired } from '../../../lib/step-up';
import { toast } from '../../../lib/toasts';
import { useSaveSpendCap, type CapOwner } from '../api/spend-caps-api';
import { toMajorUnits } from '../format';
import { minorOf, moneySettingProblem } from '../money-settings';
import { MoneyInput } from './MoneyInput';

export const SpendCapMessages = {
  saved: (name: string) => `The monthly cap of ${name} is saved.`,
  removed: (name: string) => `${name} has no monthly cap now.`,
  unavailable: 'The cap could not be saved right now. Please try again in a moment.',
} as const;

interface Values {
  mode: 'none' | 'limit';
  monthly_limit: number | string;
}

const valuesOf = (cap: SpendCap): Values => ({
  mode: cap.monthly_limit === null ? 'none' : 'limit',
  monthly_limit: cap.monthly_limit === null ? '' : toMajorUnits(cap.monthly_limit, cap.currency),
});

/**
 * A monthly spend cap, the organization's or a workspace's: none, or an amount (0 stops every
 * charge). A charge that would pass it is refused (402 SPEND_CAP_REACHED).
 */
export function SpendCapForm({
  orgId,
  owner,
  cap,
  name,
  onSaved,
  onCancel,
}: {
  orgId: string;
  owner: CapOwner;
  cap: SpendCap;
  /** Whose cap, in the toasts: "Demo Shipping Co.", "Harbour". */
  name: string;
  onSaved?: () => void;
  /** In a dialog: a Cancel button beside Save. */
  onCancel?: () => void;
}) {
  const save = useSaveSpendCap(orgId, owner);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: valuesOf(cap),
    validate: {
      monthly_limit: (value, values) =>
        values.mode === 'none'
          ? null
          : moneySettingProblem(value, cap.currency, 'monthly limit', { allowZero: true }),
    },
  });
  const mode = form.getValues().mode;

  const onSubmit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      const saved = await save.mutateAsync({
        monthly_limit: values.mode === 'none' ? null : minorOf(values.monthly_limit, cap.currency),
      });
      resetToSaved(form, valuesOf(saved));
      toast.success(
        saved.monthly_limit === null
          ? SpendCapMessages.removed(name)
          : SpendCapMessages.saved(name),
      );
      onSaved?.();
    } catch (error) {
      if (isStepUpRequired(error)) return;
      if (applyFieldErrors(form, error)) return;
      setProblem(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? SpendCapMessages.unavailable
          : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Monthly cap of ${name}`}>
      <Stack gap="md">
        <ProblemAlert>{problem}</ProblemAlert>
        <Radio.Group label="Monthly cap" {...form.getInputProps('mode')}>
          <Group gap="lg" mt="xs">
            <Radio value="none" label="No cap" />
            <Radio value="limit" label="Cap at an amount" />
          </Group>
        </Radio.Group>
        {mode === 'limit' && (
          <MoneyInput
            currency={cap.currency}
            label="Monthly limit"
            description="Charges that would pass it are refused until the next month."
            required
            maw={280}
            data-autofocus
            {...form.getInputProps('monthly_limit')}
          />
        )}
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
            Save cap
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
