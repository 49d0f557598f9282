import { Button, Stack } from '@mantine/core';
import { MFA_METHODS, type MfaChallengeResponse, type MfaMethod } from '@portolan/contract';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api';
import { AuthHeading } from '../../../lib/auth-heading';
import { ErrorCode } from '../../../lib/error-codes';
import { passkeysSupported } from '../../../lib/passkeys';
import { loginWithSecondFactor, secondStepPasskeyOptions } from '../api/auth-api';
import { FormAlert } from './FormAlert';
import { ProofAlert, ProofInputs, ProofSubmit, useProof } from './ProofField';
import type { ProofBody } from './proof-rules';

export const MfaSignInMessages = {
  expired:
    'This sign-in took too long or had too many wrong codes. Sign in again to get a new code step.',
  signInFailed: 'We could not sign you in right now. Please try again in a moment.',
  passkeyUnsupported:
    'The second step of this account is a passkey, and this browser cannot use passkeys. Sign in with a recent Chrome, Edge, Firefox or Safari.',
} as const;

const INTRO: Record<MfaMethod, string> = {
  totp: 'Enter the 6-digit code your authenticator app shows for Portolan.',
  passkey:
    'Use your passkey for Portolan: your device asks for your fingerprint, face or screen lock.',
  recovery_code: 'Enter one of the recovery codes you saved when you turned this on.',
};

export interface MfaSignInStepProps {
  challenge: Pick<MfaChallengeResponse, 'mfa_token' | 'methods'>;
  /** Finish the sign-in with the session token (the same way as a sign-in without a second step). */
  onSignedIn: (token: string) => Promise<void>;
  /** The challenge is over (expired, or too many wrong answers): start the sign-in again. */
  onExpired: (message: string) => void;
  /** Leave this step for the one before it. */
  onBack: () => void;
}

/**
 * The second step of a sign-in (issue 20 item 3): a code from the authenticator app, a passkey or
 * a recovery code, for the challenge the first step answered (POST /v1/rest-auth/app/login/mfa/),
 * the first offered in the contract's order (a passkey first when the account has no app). A
 * browser without WebAuthn is not offered the passkey.
 */
export function MfaSignInStep(props: MfaSignInStepProps) {
  const methods = MFA_METHODS.filter(
    (m) => props.challenge.methods.includes(m) && (m !== 'passkey' || passkeysSupported()),
  );
  if (methods.length > 0) return <ProofStep {...props} methods={methods} />;
  return (
    <>
      <AuthHeading title="Two-step verification" />
      <FormAlert kind="info">{MfaSignInMessages.passkeyUnsupported}</FormAlert>
      <Button variant="default" fullWidth size="md" onClick={props.onBack}>
        Back
      </Button>
    </>
  );
}

function ProofStep({
  challenge,
  methods,
  onSignedIn,
  onExpired,
  onBack,
}: MfaSignInStepProps & { methods: MfaMethod[] }) {
  const proof = useProof(methods, () => secondStepPasskeyOptions(challenge.mfa_token));
  const [signingIn, setSigningIn] = useState(false);

  const verify = useMutation({
    mutationFn: (body: ProofBody) =>
      loginWithSecondFactor({ mfa_token: challenge.mfa_token, ...body }),
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    let token: string;
    try {
      const body = await proof.answer();
      if (!body) return;
      ({ token } = await verify.mutateAsync(body));
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.INVALID_TOKEN) {
        onExpired(MfaSignInMessages.expired);
        return;
      }
      proof.refused(error);
      return;
    }
    setSigningIn(true);
    try {
      await onSignedIn(token);
    } catch {
      // The code is used up: only a new sign-in can go on.
      onExpired(MfaSignInMessages.signInFailed);
    } finally {
      setSigningIn(false);
    }
  };

  return (
    <>
      <AuthHeading title="Two-step verification">{INTRO[proof.method]}</AuthHeading>
      <ProofAlert {...proof.alert} />
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <ProofInputs {...proof.inputs} />
          <ProofSubmit
            method={proof.method}
            label="Verify"
            fullWidth
            size="md"
            loading={proof.prompting || verify.isPending || signingIn}
          />
          <Button variant="default" fullWidth size="md" onClick={onBack}>
            Back
          </Button>
        </Stack>
      </form>
    </>
  );
}
