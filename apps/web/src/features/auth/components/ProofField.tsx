import { Anchor, PasswordInput, Stack, TextInput } from '@mantine/core';
import { RECOVERY_CODE_PATTERN, TOTP_DIGITS } from '@portolan/contract';
import { useState, type ChangeEvent } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { CodeInput } from '../../../lib/code-input';
import { ErrorCode } from '../../../lib/error-codes';
import type { StepUpMethod } from '../../../lib/step-up';

/**
 * One proof of presence (issue 20): the password, a code from the authenticator app or a recovery
 * code. Used by the sign-in's second step (a code or a recovery code) and by the step-up dialog
 * (any of the three, as the server offers them).
 */
export type ProofMethod = StepUpMethod;

/** What the server's body names each proof. */
export type ProofBody = { password: string } | { code: string } | { recovery_code: string };

const FIELD_LABELS: Record<ProofMethod, string> = {
  password: 'Password',
  totp: 'Code from your authenticator app',
  recovery_code: 'Recovery code',
};

const SWITCH_LABELS: Record<ProofMethod, string> = {
  password: 'Use your password instead',
  totp: 'Use a code from your authenticator app instead',
  recovery_code: 'Use a recovery code instead',
};

export const ProofMessages = {
  missingPassword: 'Enter your password.',
  missingCode: `Enter the ${TOTP_DIGITS}-digit code from your authenticator app.`,
  missingRecoveryCode: 'Enter one of your recovery codes, as written.',
  wrongPassword: 'This is not your password. Check it and try again.',
  wrongCode: 'That code is not right. Check your authenticator app and try again.',
  wrongRecoveryCode: 'That recovery code is not right, or it has been used already.',
  tooManyAttempts: 'Too many attempts. Try again in a few minutes.',
  unavailable: 'We could not check it right now. Please try again in a moment.',
} as const;

/** The check before calling the API, with the API's rules. */
export function proofProblem(method: ProofMethod, value: string): string | null {
  const compact = value.replace(/\s+/g, '');
  if (method === 'password') return value ? null : ProofMessages.missingPassword;
  if (method === 'totp')
    return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(compact) ? null : ProofMessages.missingCode;
  return RECOVERY_CODE_PATTERN.test(compact) ? null : ProofMessages.missingRecoveryCode;
}

export function proofBody(method: ProofMethod, value: string): ProofBody {
  if (method === 'password') return { password: value };
  const compact = value.replace(/\s+/g, '');
  return method === 'totp' ? { code: compact } : { recovery_code: compact };
}

const FIELD_OF: Record<ProofMethod, string> = {
  password: 'password',
  totp: 'code',
  recovery_code: 'recovery_code',
};

/**
 * Where a refused proof's message goes: on the field (a wrong password or code, a validation
 * detail naming it) or above the form (too many attempts, the server unreachable, anything else).
 */
export function proofError(
  error: unknown,
  method: ProofMethod,
): { field: string | null; form: string | null } {
  if (!(error instanceof ApiError)) return { field: null, form: errorMessage(error) };
  const detail = error.fieldErrors.find(
    (d) => d.field.replace(/^body\./, '') === FIELD_OF[method],
  )?.message;
  switch (error.code) {
    case ErrorCode.WRONG_PASSWORD:
      return { field: ProofMessages.wrongPassword, form: null };
    case ErrorCode.INVALID_CODE:
      // The server's detail says more (a code already used); else the usual sentence.
      return {
        field:
          detail ??
          (method === 'recovery_code' ? ProofMessages.wrongRecoveryCode : ProofMessages.wrongCode),
        form: null,
      };
    case ErrorCode.TOO_MANY_ATTEMPTS:
    case ErrorCode.RATE_LIMITED:
      return { field: null, form: ProofMessages.tooManyAttempts };
    default:
      if (detail) return { field: detail, form: null };
      return {
        field: null,
        form:
          error.status >= 500 || error.status === 0
            ? ProofMessages.unavailable
            : errorMessage(error),
      };
  }
}

interface ProofFieldProps {
  method: ProofMethod;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  autoFocus?: boolean;
}

/** The field of one proof: a password input, the code's digit boxes, or a recovery code's text. */
function ProofField({ method, value, onChange, error, autoFocus }: ProofFieldProps) {
  if (method === 'totp') {
    return (
      <CodeInput
        label={FIELD_LABELS.totp}
        length={TOTP_DIGITS}
        value={value}
        onChange={onChange}
        error={error}
        autoFocus={autoFocus}
      />
    );
  }
  const shared = {
    label: FIELD_LABELS[method],
    value,
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(event.currentTarget.value),
    error,
    'aria-invalid': error ? true : undefined,
    autoFocus,
    'data-autofocus': autoFocus || undefined,
    required: true,
  };
  return method === 'password' ? (
    <PasswordInput {...shared} autoComplete="current-password" />
  ) : (
    <TextInput
      {...shared}
      description="One of the codes you saved when you turned on two-step verification."
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
    />
  );
}

/** Link-buttons to switch to each other offered proof ("Use a recovery code instead"). */
function ProofSwitches({
  methods,
  current,
  onSwitch,
}: {
  methods: readonly ProofMethod[];
  current: ProofMethod;
  onSwitch: (method: ProofMethod) => void;
}) {
  const others = methods.filter((m) => m !== current);
  if (others.length === 0) return null;
  return (
    <Stack gap={4} align="flex-start">
      {others.map((method) => (
        <Anchor
          key={method}
          component="button"
          type="button"
          size="sm"
          onClick={() => onSwitch(method)}
        >
          {SWITCH_LABELS[method]}
        </Anchor>
      ))}
    </Stack>
  );
}

/**
 * The state of a proof form: the method chosen (the first offered at first), its value, and the
 * field's and the form's error. `check` says whether the value may be sent (else the field says
 * why) and gives its body; `refused` puts the server's refusal where it belongs.
 */
export function useProof<M extends ProofMethod>(methods: readonly M[]) {
  const [method, setMethod] = useState<M>(methods[0]!);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  return {
    method,
    formError,
    check: (): ProofBody | null => {
      setFormError(null);
      const problem = proofProblem(method, value);
      setFieldError(problem);
      return problem ? null : proofBody(method, value);
    },
    refused: (error: unknown) => {
      const { field, form } = proofError(error, method);
      setFieldError(field);
      setFormError(form);
    },
    inputs: {
      methods,
      method,
      value,
      error: fieldError,
      onChange: (next: string) => {
        setValue(next);
        setFieldError(null);
      },
      onSwitch: (next: ProofMethod) => {
        setMethod(next as M);
        setValue('');
        setFieldError(null);
        setFormError(null);
      },
    },
  };
}

/** The field of the chosen proof (focused), then the switches to the other ones offered. */
export function ProofInputs({
  methods,
  method,
  value,
  error,
  onChange,
  onSwitch,
}: ReturnType<typeof useProof>['inputs']) {
  return (
    <>
      <ProofField
        key={method}
        method={method}
        value={value}
        onChange={onChange}
        error={error}
        autoFocus
      />
      <ProofSwitches methods={methods} current={method} onSwitch={onSwitch} />
    </>
  );
}
