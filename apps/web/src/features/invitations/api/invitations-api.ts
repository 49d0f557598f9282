import type { InvitationKind } from '@portolan/contract';
import { api } from '../../../lib/api';

/** What accepting answers (decision 0008). */
export interface AcceptAnswer {
  detail?: string;
  /** The invitee never chose a password: nothing was accepted yet; ask for one and send again. */
  needs_password: boolean;
  email?: string;
  first_name?: string;
  last_name?: string;
  type?: InvitationKind;
  organization?: { id: string; name: string } | null;
  client?: { id: string; name: string } | null;
  /** A session for an invitee who just chose a password. */
  token?: string;
}

export interface AcceptBody {
  token: string;
  first_name?: string;
  last_name?: string;
  password?: string;
}

/**
 * POST /v1/clients/users/invitation/accept/ or /v1/organizations/users/invitation/accept/: the
 * token is the credential. Sent without the stored session when nobody is signed in; a signed-in
 * caller's session goes along, so the server can refuse an invitation meant for someone else.
 */
export function acceptInvitation(kind: InvitationKind, body: AcceptBody) {
  const path =
    kind === 'client'
      ? '/v1/clients/users/invitation/accept/'
      : '/v1/organizations/users/invitation/accept/';
  return api.post<AcceptAnswer>(path, body, { loadingMessage: 'Checking the invitation…' });
}
