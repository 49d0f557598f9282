import { z } from 'zod';

/**
 * The marketplace-seller credential status of a workspace (spec §3 "Credential status: is_valid,
 * message"; §7 "credential status fetch"): GET /v1/clients/{id}/credential-status/. The web app
 * shows a dismissible alert with `message` on workspace pages when `is_valid` is false (§2).
 */

/** The longest message the server passes on; a checker's longer text is cut to this. */
export const CREDENTIAL_MESSAGE_MAX_LENGTH = 500;

/**
 * The answer when the checker could not be asked or answered nonsense: the credential is not
 * claimed invalid (no alert for an outage the user cannot fix), and the message says why.
 */
export const CREDENTIAL_CHECK_UNAVAILABLE_MESSAGE =
  'The marketplace-seller credential could not be checked just now.';

export const credentialStatusSchema = z.object({
  /** False only when the checker said the credential failed. */
  is_valid: z.boolean(),
  /** The checker's words (plain text), or null. */
  message: z.string().max(CREDENTIAL_MESSAGE_MAX_LENGTH).nullable(),
});
export type CredentialStatus = z.infer<typeof credentialStatusSchema>;
