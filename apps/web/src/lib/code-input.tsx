import { Input, InputWrapperContext, PinInput, Stack } from '@mantine/core';
import { useId } from 'react';
import { CODE_LENGTH } from './validation';

export interface CodeInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  disabled?: boolean;
  autoFocus?: boolean;
  /** The number of digits (the e-mailed codes' by default). */
  length?: number;
}

/**
 * A code of digits (the 6-digit code from the e-mail, or from an authenticator app): one labelled
 * group of digit boxes, `autocomplete="one-time-code"`. An error is a field error like the others
 * (red, announced), and every box is aria-invalid and described by it.
 */
export function CodeInput({
  label,
  value,
  onChange,
  error,
  disabled,
  autoFocus,
  length = CODE_LENGTH,
}: CodeInputProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  return (
    <Stack gap={6}>
      {/* A label like every field's (a div: it names the group of boxes, not one input). */}
      <Input.Label id={labelId} labelElement="div">
        {label}
      </Input.Label>
      {/*
        Mantine's inputs take aria-describedby from the input-wrapper context (a prop is
        overridden), so the error is wired through it; each box keeps its own id.
      */}
      <InputWrapperContext
        value={{
          offsetTop: false,
          offsetBottom: false,
          describedBy: error ? errorId : undefined,
          inputId: undefined,
          labelId: undefined,
          getStyles: null,
        }}
      >
        <PinInput
          length={length}
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
            'aria-label': `${label}, digit ${index + 1} of ${length}`,
          })}
        />
      </InputWrapperContext>
      {/* Mantine's field error: the same red as every other field's error. */}
      {error && (
        <Input.Error id={errorId} role="alert">
          {error}
        </Input.Error>
      )}
    </Stack>
  );
}
