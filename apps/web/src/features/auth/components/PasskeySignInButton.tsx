import { Button } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError } from '../../../lib/api';
import { ErrorCode } from '../../../lib/error-codes';
import { PasskeyError, signWithPasskey } from '../../../lib/passkeys';
import { loginWithPasskey, passkeySignInOptions } from '../api/auth-api';

export const PasskeySignInMessages = {
  refused:
    'This passkey could not sign you in. Try again, or sign in with your e-mail and password.',
} as const;

/**
 * What a failed passkey sign-in says that the sign-in form would not: the browser's reason (the
 * prompt closed is only a note), or the passkey refused. Null: the form's own handling fits
 * (a disabled account, too many attempts, the server unreachable).
 */
export function passkeySignInProblem(error: unknown): { note: boolean; text: string } | null {
  if (error instanceof PasskeyError) {
    return { note: error.problem === 'cancelled', text: error.message };
  }
  if (
    error instanceof ApiError &&
    (error.code === ErrorCode.INVALID_CREDENTIALS || error.code === ErrorCode.INVALID_CODE)
  ) {
    return { note: false, text: PasskeySignInMessages.refused };
  }
  return null;
}

/**
 * "Sign in with a passkey" (issue 20 item 2), a sign-in without e-mail or password: the browser
 * offers the passkeys it has for this site (POST /v1/rest-auth/passkey/options/), the one chosen
 * signs the challenge, and its answer gives the session token (POST /v1/rest-auth/passkey/).
 */
export function PasskeySignInButton({
  onStart,
  onSignedIn,
  onError,
}: {
  /** A new attempt: what an earlier one said is stale. */
  onStart: () => void;
  onSignedIn: (token: string) => Promise<void>;
  onError: (error: unknown) => void;
}) {
  const [busy, setBusy] = useState(false);

  const signIn = async () => {
    onStart();
    setBusy(true);
    try {
      const assertion = await signWithPasskey(await passkeySignInOptions());
      const { token } = await loginWithPasskey(assertion);
      await onSignedIn(token);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      variant="default"
      fullWidth
      size="md"
      leftSection={<IconKey size={18} aria-hidden="true" />}
      loading={busy}
      onClick={() => void signIn()}
    >
      Sign in with a passkey
    </Button>
  );
}
