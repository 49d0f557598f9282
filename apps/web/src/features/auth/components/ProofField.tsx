import { Anchor, Button, PasswordInput, Stack, TextInput, type ButtonProps } from '@mantine/core';
import { TOTP_DIGITS, type PasskeyOptionsResponse } from '@portolan/contract';
import { IconKey } from '@tabler/icons-react';
import { useState, type ChangeEvent } from 'react';
import { CodeInput } from '../../../lib/code-input';
import { signWithPasskey } from '../../../lib/passkeys';
import { FormAlert } from './FormAlert';
import {
  proofBody,
  proofError,
  proofProblem,
  type ProofBody,
  type ProofMethod,
  type TypedProof,
} from './proof-rules';

/**
 * The form parts of one proof of presence (proof-rules.ts): its field, the switches to the other
 * proofs offered, the submit ("Use a passkey" for a passkey) and the alert above them. Used by the
 * sign-in's second step and by the step-up dialog.
 */

const FIELD_LABELS: Record<TypedProof, string> = {
  password: 'Password',
  totp: 'Code from your authenticator app',
  recovery_code: 'Recovery code',
};

const SWITCH_LABELS: Record<ProofMethod, string> = {
  password: 'Use your password instead',
  totp: 'Use a code from your authenticator app instead',
  passkey: 'Use a passkey instead',
  recovery_code: 'Use a recovery code instead',
};

interface ProofFieldProps {
  method: TypedProof;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  autoFocus?: boolean;
}

/** The field of a typed proof: a password input, the code's digit boxes, or a recovery code's text. */
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
 * The state of a proof form: the method chosen (the first offered at first), its value, the
 * field's and the form's error, and a quiet note (the passkey prompt closed). `answer` gives the
 * body to send: for a passkey, once the browser signed the challenge `passkeyOptions` got (it
 * rejects when it could not); else the value, or null when it may not be sent (the field says
 * why). `refused` puts a refusal where it belongs.
 */
export function useProof<M extends ProofMethod>(
  methods: readonly M[],
  passkeyOptions: () => Promise<PasskeyOptionsResponse>,
) {
  const [method, setMethod] = useState<M>(methods[0]!);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [alert, setAlert] = useState<{ error: string | null; note: string | null }>({
    error: null,
    note: null,
  });
  const [prompting, setPrompting] = useState(false);
  const chosen: ProofMethod = method;
  return {
    method,
    alert,
    /** The browser's passkey prompt (and the call for its challenge) is open. */
    prompting,
    answer: async (): Promise<ProofBody | null> => {
      setAlert({ error: null, note: null });
      if (chosen === 'passkey') {
        setPrompting(true);
        try {
          return { passkey: await signWithPasskey(await passkeyOptions()) };
        } finally {
          setPrompting(false);
        }
      }
      const problem = proofProblem(chosen, value);
      setFieldError(problem);
      return problem ? null : proofBody(chosen, value);
    },
    refused: (error: unknown) => {
      const { field, form, note } = proofError(error, chosen);
      setFieldError(field);
      setAlert({ error: form, note });
    },
    inputs: {
      methods,
      method: chosen,
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
        setAlert({ error: null, note: null });
      },
    },
  };
}

/** What went wrong with the proof (red), or the quiet note that no passkey was used. */
export function ProofAlert({ error, note }: ReturnType<typeof useProof>['alert']) {
  if (error) return <FormAlert>{error}</FormAlert>;
  return note ? <FormAlert kind="info">{note}</FormAlert> : null;
}

/**
 * The field of the chosen proof (focused; a passkey has none), then the switches to the other
 * ones offered.
 */
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
      {method !== 'passkey' && (
        <ProofField
          key={method}
          method={method}
          value={value}
          onChange={onChange}
          error={error}
          autoFocus
        />
      )}
      <ProofSwitches methods={methods} current={method} onSwitch={onSwitch} />
    </>
  );
}

/**
 * The form's submit: `label` for a typed proof; for a passkey "Use a passkey", focused when
 * chosen (it stands where the field would).
 */
export function ProofSubmit({
  method,
  label,
  ...props
}: { method: ProofMethod; label: string } & ButtonProps) {
  const passkey = method === 'passkey';
  return (
    <Button
      key={passkey ? 'passkey' : 'typed'}
      type="submit"
      autoFocus={passkey}
      data-autofocus={passkey || undefined}
      leftSection={passkey ? <IconKey size={18} aria-hidden="true" /> : undefined}
      {...props}
    >
      {passkey ? 'Use a passkey' : label}
    </Button>
  );
}
