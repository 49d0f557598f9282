import { vi } from 'vitest';

/**
 * A stand-in for @simplewebauthn/browser (the browser's passkey prompts; jsdom has no WebAuthn),
 * for a test file's `vi.mock('@simplewebauthn/browser', () => import('…/test/webauthn-mock'))`. A
 * test says what the prompt answers (`startAuthentication.mockResolvedValueOnce(assertionJson)`)
 * or throws (`promptClosed()`), and turns WebAuthn on for what the pages offer (`withWebAuthn()`).
 */
export const startAuthentication = vi.fn<(options: { optionsJSON: unknown }) => Promise<unknown>>();
export const startRegistration = vi.fn<(options: { optionsJSON: unknown }) => Promise<unknown>>();
export const browserSupportsWebAuthn = vi.fn(() => true);

/** This browser has WebAuthn: the pages offer passkeys (lib/passkeys.ts `passkeysSupported`). */
export function withWebAuthn() {
  vi.stubGlobal('PublicKeyCredential', class PublicKeyCredential {});
}

/** What the prompt throws when the user closes it (or it times out). */
export function promptClosed(): Error {
  return Object.assign(new Error('The operation either timed out or was not allowed.'), {
    name: 'NotAllowedError',
  });
}

/** A challenge's options, as the API gives them (PasskeyOptionsResponse). */
export function passkeyOptions(challengeId = '0f5d3c1e-7b8a-4c2d-9e6f-1a2b3c4d5e6f') {
  return {
    challenge_id: challengeId,
    options: { challenge: 'c2lnbi1tZQ', rpId: 'localhost', userVerification: 'required' },
  };
}

/** The browser's answer to an authentication prompt (AuthenticationResponseJSON). */
export const assertionJson = {
  id: 'Y3JlZC0x',
  rawId: 'Y3JlZC0x',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
  clientExtensionResults: {},
};

/** The browser's answer to a registration prompt (RegistrationResponseJSON). */
export const registrationJson = {
  id: 'bmV3LWNyZWQ',
  rawId: 'bmV3LWNyZWQ',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'AA', transports: ['internal'] },
  clientExtensionResults: {},
};
