import { CODE_LENGTH } from '../../../lib/validation';
import { PinInput, Stack, Text } from '@mantine/core';
import { useId } from 'react';

export interface CodeInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  disabled?: boolean;
  autoFocus?: boolean;
}

/** The 6-digit code from the e-mail: one labelled group of digit boxes, errors announced. */
export function CodeInput({ label, value, onChange, error, disabled, autoFocus }: CodeInputProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  return (
    <Stack gap={6}>
      <Text id={labelId} fw={500} size="sm">
        {label}
      </Text>
      <PinInput
        length={CODE_LENGTH}
        type="number"
        oneTimeCode
        size="lg"
        gap="xs"
        value={value}
        onChange={onChange}
        error={Boolean(error)}
        disabled={disabled}
        autoFocus={autoFocus}
        aria-labelledby={labelId}
        getInputProps={(index) => ({
          'aria-label': `${label}, digit ${index + 1} of ${CODE_LENGTH}`,
          'aria-invalid': Boolean(error),
          'aria-describedby': error ? errorId : undefined,
        })}
      />
      {error && (
        <Text id={errorId} c="error" size="sm" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
