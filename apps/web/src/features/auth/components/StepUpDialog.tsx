import { Button, getDefaultZIndex, Group, Modal, Stack, Text } from '@mantine/core';
import type { FormEvent } from 'react';
import { relogin } from '../../../lib/auth-store';
import { passkeysSupported } from '../../../lib/passkeys';
import { finishStepUp, useStepUpStore, type StepUpMethod } from '../../../lib/step-up';
import { stepUpPasskeyOptions, useStepUp } from '../api/step-up-api';
import { ProofAlert, ProofInputs, ProofSubmit, useProof } from './ProofField';

export const STEP_UP_TITLE = 'Confirm it’s you';

const INTRO: Record<StepUpMethod, string> = {
  password: 'Enter your password to go on.',
  totp: 'Enter the 6-digit code your authenticator app shows for Portolan to go on.',
  passkey: 'Use your passkey to go on: your device asks for your fingerprint, face or screen lock.',
  recovery_code: 'Enter one of your recovery codes to go on. Each code works once.',
};

/** The proof form: the first method the server offers, with switches to the others. */
function ProofForm({ methods }: { methods: StepUpMethod[] }) {
  const proof = useProof(methods, stepUpPasskeyOptions);
  const stepUp = useStepUp();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const body = await proof.answer();
      if (!body) return;
      await stepUp.mutateAsync(body);
    } catch (error) {
      proof.refused(error);
      return;
    }
    finishStepUp(true);
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">
          This is a sensitive change, and a while has passed since you last confirmed it’s you.{' '}
          {INTRO[proof.method]}
        </Text>
        <ProofAlert {...proof.alert} />
        <ProofInputs {...proof.inputs} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => finishStepUp(false)}>
            Cancel
          </Button>
          <ProofSubmit
            method={proof.method}
            label="Confirm"
            loading={proof.prompting || stepUp.isPending}
          />
        </Group>
      </Stack>
    </form>
  );
}

/**
 * No password and no second factor this browser can give (an account that signs in with Google
 * only, or a passkey in a browser without WebAuthn): sign in again.
 */
function SignInAgain() {
  return (
    <Stack gap="md">
      <Text size="sm">
        This is a sensitive change, and a while has passed since you signed in. Your account has no
        password or second step this browser can use to confirm it’s you here: sign in again, then
        make the change.
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => finishStepUp(false)}>
          Cancel
        </Button>
        <Button
          onClick={() => {
            finishStepUp(false);
            relogin();
          }}
        >
          Sign in again
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The step-up dialog (issue 20 item 8), over whatever is on screen, dialogs included: the server
 * refused a sensitive call for want of a recent proof of presence (403 STEP_UP_REQUIRED). A proof
 * accepted (POST /v1/user/step-up/), the calls waiting on it are sent again; closed, they fail.
 * Mounted by app/ only while a call waits (lib/step-up.ts).
 */
export default function StepUpDialog() {
  const offered = useStepUpStore((s) => s.methods);
  const methods = offered?.filter((m) => m !== 'passkey' || passkeysSupported()) ?? null;
  return (
    <Modal
      opened={methods !== null}
      onClose={() => finishStepUp(false)}
      title={STEP_UP_TITLE}
      centered
      // Above a dialog that made the call (a plan change, a role change).
      zIndex={getDefaultZIndex('modal') + 10}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {methods && (methods.length > 0 ? <ProofForm methods={methods} /> : <SignInAgain />)}
    </Modal>
  );
}
