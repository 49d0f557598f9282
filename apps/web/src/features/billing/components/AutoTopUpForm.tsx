import { Alert, Anchor, Button, Group, Select, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AutoTopUp, FundPackage } from '@portolan/contract';
import { IconCreditCardOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import { ErrorCode } from '../../../lib/error-codes';
import { ProblemAlert } from '../../../lib/form-parts';
import { applyFieldErrors, resetToSaved } from '../../../lib/forms';
import { isStepUpRequired } from '../../../lib/step-up';
import { toast } from '../../../lib/toasts';
import { useSaveAutoTopUp } from '../api/auto-top-up-api';
import { formatMoney, toMajorUnits } from '../format';
import { billingPath } from '../gate-rules';
import { minorOf, moneySettingProblem } from '../money-settings';
import { MoneyInput } from './MoneyInput';

export const AutoTopUpMessages = {
  on: 'Auto top-up is on.',
  off: 'Auto top-up is off.',
  fundPackage: 'Choose the fund package to buy.',
  unavailable: 'Auto top-up could not be saved right now. Please try again in a moment.',
} as const;

interface Values {
  enabled: boolean;
  threshold: number | string;
  fund_package_id: string | null;
}

const valuesOf = (setting: AutoTopUp, currency: string): Values => ({
  enabled: setting.enabled,
  threshold: setting.threshold === null ? '' : toMajorUnits(setting.threshold, currency),
  fund_package_id: setting.fund_package_id,
});

const packageLabel = (p: FundPackage) =>
  p.credit === p.price
    ? `${p.name}: ${formatMoney(p.credit, p.currency)}`
    : `${p.name}: pay ${formatMoney(p.price, p.currency)}, get ${formatMoney(p.credit, p.currency)}`;

/**
 * Auto top-up: on or off, the balance under which a package is bought, and which package. It
 * pays with the default card, off-session: without one the server answers 409 NO_PAYMENT_METHOD,
 * and the form says where to add one.
 */
export function AutoTopUpForm({
  orgId,
  setting,
  currency,
  packages,
}: {
  orgId: string;
  setting: AutoTopUp;
  /** The balance's currency, which the threshold is in. */
  currency: string;
  packages: FundPackage[];
}) {
  const save = useSaveAutoTopUp(orgId);
  const [problem, setProblem] = useState<string | null>(null);
  const [noCard, setNoCard] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: valuesOf(setting, currency),
    validate: {
      threshold: (value, values) => {
        if (!values.enabled && value === '') return null;
        return moneySettingProblem(value, currency, 'threshold');
      },
      fund_package_id: (value, values) =>
        values.enabled && !value ? AutoTopUpMessages.fundPackage : null,
    },
  });
  const enabled = form.getValues().enabled;

  const onSubmit = form.onSubmit(async (values) => {
    setProblem(null);
    setNoCard(null);
    try {
      const saved = await save.mutateAsync({
        enabled: values.enabled,
        threshold: minorOf(values.threshold, currency),
        fund_package_id: values.fund_package_id,
      });
      resetToSaved(form, valuesOf(saved, currency));
      toast.success(saved.enabled ? AutoTopUpMessages.on : AutoTopUpMessages.off);
    } catch (error) {
      if (isStepUpRequired(error)) return;
      if (error instanceof ApiError && error.code === ErrorCode.NO_PAYMENT_METHOD) {
        setNoCard(error.message);
        return;
      }
      if (applyFieldErrors(form, error)) return;
      setProblem(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? AutoTopUpMessages.unavailable
          : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Auto top-up">
      <Stack gap="md">
        <ProblemAlert>{problem}</ProblemAlert>
        {noCard && (
          <Alert
            color="orange"
            variant="light"
            role="alert"
            title="Auto top-up needs a default card"
            icon={<IconCreditCardOff size={18} aria-hidden="true" />}
          >
            {noCard}{' '}
            <Anchor component={Link} to={billingPath(orgId, 'cards')} inherit fw={600}>
              Add a card or choose the default one on the Cards page
            </Anchor>
            , then save again.
          </Alert>
        )}
        <Switch
          label="Top up automatically"
          description="Buys the package below with the default card when a charge takes the balance under the threshold."
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <MoneyInput
          currency={currency}
          label="When the balance falls below"
          required={enabled}
          maw={280}
          {...form.getInputProps('threshold')}
        />
        <Select
          withAsterisk={false}
          label="Fund package to buy"
          placeholder="Choose a package"
          required={enabled}
          data={packages.map((p) => ({ value: p.id, label: packageLabel(p) }))}
          allowDeselect={false}
          maw={400}
          {...form.getInputProps('fund_package_id')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
            Save auto top-up
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
