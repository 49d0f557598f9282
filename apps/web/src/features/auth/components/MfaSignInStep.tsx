import { Button, Stack } from '@mantine/core';
import type { MfaChallengeResponse } from '@portolan/contract';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api';
import { AuthHeading } from '../../../lib/auth-heading';
import { ErrorCode } from '../../../lib/error-codes';
import type { StepUpMethod } from '../../../lib/step-up';
import { loginWithSecondFactor } from '../api/auth-api';
import { FormAlert } from './FormAlert';
import { ProofInputs, useProof, type ProofBody } from './ProofField';

export const MfaSignInMessages = {
  expired:
    'This sign-in took too long or had too many wrong codes. Sign in again to get a new code step.',
  signInFailed: 'We could not sign you in right now. Please try again in a moment.',
  passkeyOnly: 'The second step of this account is a passkey, which this page cannot ask for yet.',
} as const;

/** The second factors this step asks for (a passkey is not asked for here yet). */
type CodeMethod = Exclude<StepUpMethod, 'password'>;
const isCodeMethod = (m: string): m is CodeMethod => m === 'totp' || m === 'recovery_code';

const INTRO: Record<CodeMethod, string> = {
  totp: 'Enter the 6-digit code your authenticator app shows for Portolan.',
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
 * The second step of a sign-in (issue 20 item 3): a code from the authenticator app, or a
 * recovery code, for the challenge the first step answered (POST /v1/rest-auth/app/login/mfa/).
 */
export function MfaSignInStep(props: MfaSignInStepProps) {
  const methods = props.challenge.methods.filter(isCodeMethod);
  if (methods.length > 0) return <CodeStep {...props} methods={methods} />;
  return (
    <>
      <AuthHeading title="Two-step verification" />
      <FormAlert kind="info">{MfaSignInMessages.passkeyOnly}</FormAlert>
      <Button variant="default" fullWidth size="md" onClick={props.onBack}>
        Back
      </Button>
    </>
  );
}

function CodeStep({
  challenge,
  methods,
  onSignedIn,
  onExpired,
  onBack,
}: MfaSignInStepProps & { methods: CodeMethod[] }) {
  const proof = useProof(methods);
  const [signingIn, setSigningIn] = useState(false);

  const verify = useMutation({
    mutationFn: (body: ProofBody) =>
      loginWithSecondFactor({ mfa_token: challenge.mfa_token, ...body }),
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body = proof.check();
    if (!body) return;
    let token: string;
    try {
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
      {proof.formError && <FormAlert>{proof.formError}</FormAlert>}
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <ProofInputs {...proof.inputs} />
          <Button type="submit" fullWidth size="md" loading={verify.isPending || signingIn}>
            Verify
          </Button>
          <Button variant="default" fullWidth size="md" onClick={onBack}>
            Back
          </Button>
        </Stack>
      </form>
    </>
  );
}
