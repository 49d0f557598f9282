import {
  CREDENTIAL_CHECK_UNAVAILABLE_MESSAGE,
  CREDENTIAL_MESSAGE_MAX_LENGTH,
  type CredentialStatus,
} from '@portolan/contract';

/**
 * The marketplace-seller credential checker behind one interface (spec §2, §3 "Credential
 * status"): whether the seller credential a workspace works with still passes the marketplace's
 * check. The portal does not hold the credential; a service of the operator's does, and answers
 * per workspace. Adapters: `http` (CREDENTIAL_CHECK_URL, http.ts) and `static` (tests, and every
 * workspace valid when nothing is configured).
 *
 * `check` never throws: a checker that cannot tell answers `UNAVAILABLE`.
 */
export interface CredentialChecker {
  check(workspace: CredentialWorkspace): Promise<CredentialStatus>;
}

/** What a checker is told of the workspace. */
export interface CredentialWorkspace {
  id: string;
  organization_id: string;
  name: string;
}

export const VALID: CredentialStatus = Object.freeze({ is_valid: true, message: null });

/**
 * The checker could not be asked, or answered nonsense: not evidence that the credential failed,
 * so the workspace is not alarmed (is_valid true; the alert is for a failure the user can act
 * on), and the message says the check did not happen.
 */
export const UNAVAILABLE: CredentialStatus = Object.freeze({
  is_valid: true,
  message: CREDENTIAL_CHECK_UNAVAILABLE_MESSAGE,
});

/** C0 and C1 controls and unpaired surrogates: not for a one-line message shown as text. */
const CONTROL_OR_LONE_SURROGATE = /[\p{Cc}\p{Cs}]+/gu;

/**
 * A checker's message as the portal serves it: plain one-line text (controls become spaces,
 * runs of white space one space), at most CREDENTIAL_MESSAGE_MAX_LENGTH characters (cut on a
 * code point, ending in …), or null when nothing is left. Markup stays as typed: it is text.
 */
export function cleanMessage(message: string | null | undefined): string | null {
  if (typeof message !== 'string') return null;
  const text = message.replace(CONTROL_OR_LONE_SURROGATE, ' ').replace(/\s+/gu, ' ').trim();
  if (!text) return null;
  if (text.length <= CREDENTIAL_MESSAGE_MAX_LENGTH) return text;
  let cut = '';
  for (const ch of text) {
    if (cut.length + ch.length > CREDENTIAL_MESSAGE_MAX_LENGTH - 1) break;
    cut += ch;
  }
  return `${cut.trimEnd()}…`;
}

/** A checker answering from a table (for tests); a workspace not in it is valid. */
export interface StaticCredentialChecker extends CredentialChecker {
  /** Sets (or with null, clears) one workspace's answer. */
  set(workspaceId: string, status: CredentialStatus | null): void;
}

export function createStaticCredentialChecker(
  statuses: Record<string, CredentialStatus> = {},
): StaticCredentialChecker {
  const table = new Map(Object.entries(statuses));
  return {
    check: async (workspace) => {
      const status = table.get(workspace.id);
      return status ? { is_valid: status.is_valid, message: cleanMessage(status.message) } : VALID;
    },
    set(workspaceId, status) {
      if (status) table.set(workspaceId, status);
      else table.delete(workspaceId);
    },
  };
}
