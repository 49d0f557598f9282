import { NumberInput, Text, VisuallyHidden, type NumberInputProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { currencyDigits, currencySymbol } from '../format';

/**
 * An amount in the currency's major units ("12.50" dollars), its sign in front and its code in
 * the spoken label ("Threshold in USD"); the form turns it into minor units on submit.
 */
export function MoneyInput({
  currency,
  label,
  ...props
}: Omit<NumberInputProps, 'label'> & { currency: string; label: ReactNode }) {
  const code = currency.toUpperCase();
  return (
    <NumberInput
      label={
        <>
          {label} <VisuallyHidden component="span">in {code}</VisuallyHidden>
        </>
      }
      min={0}
      decimalScale={currencyDigits(code)}
      allowNegative={false}
      thousandSeparator=","
      inputMode="decimal"
      leftSection={
        <Text size="sm" c="dimmed" aria-hidden="true">
          {currencySymbol(code)}
        </Text>
      }
      hideControls
      withAsterisk={false}
      {...props}
    />
  );
}
