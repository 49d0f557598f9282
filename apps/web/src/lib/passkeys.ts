import type {
  PasskeyAssertion,
  PasskeyOptionsResponse,
  PasskeyRegistration,
} from '@portolan/contract';
import type * as WebAuthn from '@simplewebauthn/browser';

/**
 * Passkeys in the browser (issue 20 item 2): the WebAuthn prompts of @simplewebauthn/browser,
 * loaded only once a ceremony starts (a chunk of its own; no first screen carries it). The server
 * gives the options and the challenge (PasskeyOptionsResponse); the browser's answer goes back
 * with the challenge's id.
 */

/** Why the browser gave no passkey. */
export type PasskeyProblem = 'cancelled' | 'unsupported' | 'registered' | 'address' | 'failed';

export const PasskeyMessages: Record<PasskeyProblem, string> = {
  // The user closed the prompt, it timed out, or they had no passkey to offer.
  cancelled: 'The passkey prompt was closed. Try again when you are ready.',
  unsupported: 'This browser cannot use passkeys. Use a recent Chrome, Edge, Firefox or Safari.',
  registered: 'This device already has a passkey for your account.',
  address: 'Passkeys do not work at this address. Open Portolan at its usual address.',
  failed: 'Your browser could not use a passkey. Please try again.',
};

/** A ceremony that gave no passkey; `problem` says why, the message what to do. */
export class PasskeyError extends Error {
  readonly problem: PasskeyProblem;

  constructor(problem: PasskeyProblem, cause?: unknown) {
    super(PasskeyMessages[problem], { cause });
    this.name = 'PasskeyError';
    this.problem = problem;
  }
}

/**
 * Whether this browser has WebAuthn, for what a page offers: the test browserSupportsWebAuthn()
 * makes, without loading the library. A ceremony asks the library itself too.
 */
export function passkeysSupported(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function';
}

/** The DOMException names of the WebAuthn spec, as @simplewebauthn/browser passes them on. */
function problemOf(error: unknown): PasskeyProblem {
  switch (error instanceof Error ? error.name : '') {
    case 'NotAllowedError':
    case 'AbortError':
      return 'cancelled';
    case 'InvalidStateError':
      return 'registered';
    case 'SecurityError':
      return 'address';
    default:
      return 'failed';
  }
}

async function ceremony<T>(run: (webauthn: typeof WebAuthn) => Promise<T>): Promise<T> {
  let webauthn: typeof WebAuthn;
  try {
    webauthn = await import('@simplewebauthn/browser');
  } catch (error) {
    throw new PasskeyError('failed', error);
  }
  if (!webauthn.browserSupportsWebAuthn()) throw new PasskeyError('unsupported');
  try {
    return await run(webauthn);
  } catch (error) {
    throw new PasskeyError(problemOf(error), error);
  }
}

/** The browser's answer as the API's schema names it (a record where the library has interfaces). */
type CredentialJson = PasskeyAssertion['response'];

/**
 * The browser's prompt to sign the challenge with a passkey (sign-in, second step, step-up):
 * the answer to send back. Rejects with a PasskeyError when no passkey answered.
 */
export async function signWithPasskey({
  challenge_id,
  options,
}: PasskeyOptionsResponse): Promise<PasskeyAssertion> {
  const response = await ceremony((webauthn) =>
    webauthn.startAuthentication({
      optionsJSON: options as unknown as WebAuthn.PublicKeyCredentialRequestOptionsJSON,
    }),
  );
  return { challenge_id, response: response as unknown as CredentialJson };
}

/**
 * The browser's prompt to make a new passkey for the registration challenge: the answer to send
 * back. Rejects with a PasskeyError when none was made.
 */
export async function createPasskey({
  challenge_id,
  options,
}: PasskeyOptionsResponse): Promise<Omit<PasskeyRegistration, 'name'>> {
  const response = await ceremony((webauthn) =>
    webauthn.startRegistration({
      optionsJSON: options as unknown as WebAuthn.PublicKeyCredentialCreationOptionsJSON,
    }),
  );
  return { challenge_id, response: response as unknown as CredentialJson };
}
