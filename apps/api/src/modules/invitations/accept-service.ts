import {
  ErrorCode,
  Messages,
  passwordProblem,
  type InvitationAccept,
  type InvitationAcceptResponse,
  type InvitationKind,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { AppError, conflict, fieldError } from '../../lib/errors.ts';
import { lockTenant } from '../access/index.ts';
import { hashPassword, startSessionIn, type ClientMeta } from '../auth/index.ts';
import { joinAsExternal, joinPendingMembership } from '../members/index.ts';
import { settleInvitationNotifications } from '../notifications/index.ts';
import { completeInvitedAccount, findUserById, type UserRow } from '../users/index.ts';
import {
  decideInvitation,
  findInvitationByHash,
  grantIfOrganizationAdmin,
  lockInvitation,
  type InvitationRow,
  type Target,
} from './repo.ts';
import { recordMemberAdded } from './service.ts';
import { hashInvitationToken } from './tokens.ts';

const invalid = () =>
  new AppError(
    ErrorCode.INVITATION_INVALID,
    'This invitation is not valid: it may have been replaced by a newer one or withdrawn.',
  );

const passwordAlreadySet = () =>
  fieldError('password', 'This account has a password already: sign in with it.');

/**
 * Whether the invitation can still be accepted: answers for one decided already, withdrawn or
 * replaced (REVOKED), or past its 7 days. Checked before any work and again under the row lock.
 */
export function assertOpen(invitation: InvitationRow, now: Date): void {
  if (invitation.status === 'ACCEPTED') {
    throw conflict(ErrorCode.INVITATION_ALREADY_ACCEPTED, 'This invitation was already accepted.');
  }
  if (invitation.status === 'DECLINED') {
    throw conflict(ErrorCode.INVITATION_ALREADY_DECLINED, 'This invitation was already declined.');
  }
  if (invitation.status === 'REVOKED') throw invalid();
  if (invitation.expires_at <= now) {
    throw new AppError(
      ErrorCode.INVITATION_EXPIRED,
      'This invitation has expired. Ask for a new one.',
    );
  }
}

/** An invitee who has never had a password nor signed in chooses one when accepting. */
const needsPassword = (user: UserRow) => user.password_hash === null && user.last_login_at === null;

const describe = (target: Target) => ({
  type: target.kind,
  organization: target.organization,
  client: target.client,
});

/**
 * Accepts an invitation by its token (POST /v1/organizations/users/invitation/accept/ and
 * /v1/clients/users/invitation/accept/, each for its own kind). `callerId` is the signed-in
 * caller, if any: only the invitee may accept (403 otherwise). An invitee without a password who
 * sends none is answered `needs_password` and nothing changes. Otherwise, in one transaction under
 * the invitation's row lock (so of parallel acceptances exactly one wins): the memberships join,
 * the e-mail is verified, a first password and names are set, the invitation is ACCEPTED, its
 * notification done, ADD_MEMBER recorded with the inviter as actor, an OWNER or ADMIN of the
 * organization gets its active workspaces, and, when a password was set, a session is opened.
 */
export async function acceptInvitation(
  ctx: AppContext,
  kind: InvitationKind,
  input: InvitationAccept,
  caller: { userId: string } | null,
  meta: ClientMeta,
): Promise<InvitationAcceptResponse> {
  const found = await findInvitationByHash(ctx.db, hashInvitationToken(input.token));
  if (!found || found.invitation.kind !== kind) throw invalid();
  const { invitation, user, target } = found;
  assertOpen(invitation, ctx.clock.now());
  if (caller && caller.userId !== user.id) {
    throw new AppError(
      ErrorCode.INVITATION_OTHER_ACCOUNT,
      'This invitation is for another account. Sign out, then open the link again.',
    );
  }
  if (input.password === undefined && needsPassword(user)) {
    return {
      needs_password: true,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      ...describe(target),
    };
  }
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    if (user.password_hash !== null) throw passwordAlreadySet();
    const problem = passwordProblem(input.password, user.email);
    if (problem) throw fieldError('password', problem, ErrorCode.WEAK_PASSWORD);
    passwordHash = await hashPassword(input.password);
  }
  const token = await ctx.db.transaction(async (tx) => {
    // The lock order of tenant writes: the organization, the workspace, then the invitation.
    const tenant = { organizationId: target.organization.id, clientId: target.client?.id };
    if (!(await lockTenant(tx, tenant))) throw invalid();
    const locked = await lockInvitation(tx, invitation.id);
    if (!locked) throw invalid();
    const now = ctx.clock.now();
    assertOpen(locked, now);
    // Locked too: two invitations of one person accepted at once set one first password.
    const current = await findUserById(tx, user.id, { lock: true });
    if (!current) throw invalid();
    if (passwordHash && current.password_hash !== null) throw passwordAlreadySet();
    if (!(await joinMemberships(tx, target, locked))) throw invalid();
    const invitee = await completeInvitedAccount(
      tx,
      current,
      passwordHash ? { ...input, passwordHash } : {},
      now,
    );
    await decideInvitation(tx, locked.id, 'ACCEPTED', now);
    await settleInvitationNotifications(tx, locked.id);
    await recordMemberAdded(tx, ctx, {
      target,
      actorId: locked.invited_by ?? invitee.id,
      member: invitee,
      role: locked.role,
      via: { invitationId: locked.id },
    });
    await grantIfOrganizationAdmin(tx, target, invitee.id, locked.role);
    return passwordHash ? startSessionIn(tx, ctx, invitee, meta) : undefined;
  });
  return {
    needs_password: false,
    detail:
      kind === 'client'
        ? Messages.invitationAcceptedWorkspace
        : Messages.invitationAcceptedOrganization,
    ...describe(target),
    ...(token && { token }),
  };
}

/**
 * The invitation's PENDING membership becomes MEMBER with the role offered; for a workspace
 * invitation the pending external organization membership joins too. False when the membership
 * is gone (the member was removed meanwhile): the invitation offers nothing any more.
 */
async function joinMemberships(tx: Tx, target: Target, invitation: InvitationRow) {
  const { user_id: userId, role } = invitation;
  if (!(await joinPendingMembership(tx, target, userId, role))) return false;
  if (target.client) {
    await joinAsExternal(tx, target.organization.id, userId, {
      status: 'MEMBER',
      invitedBy: invitation.invited_by,
    });
  }
  return true;
}
