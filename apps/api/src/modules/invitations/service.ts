import {
  canActOnRole,
  effectiveWorkspaceRole,
  ErrorCode,
  INVITATION_TTL_MS,
  isInternalRole,
  passwordProblem,
  ROLE_NAMES,
  type InvitedMember,
  type MembershipStatus,
  type OrganizationInvitation,
  type Role,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../lib/database-errors.ts';
import { conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { enqueueMail } from '../../lib/mail/outbox.ts';
import { memberAddedMail } from '../../lib/mail/templates.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { ActivityAction } from '../activities/index.ts';
import { assertMemberLimit } from '../billing/index.ts';
import { recordActivityWithEvents, recordChangeEvents } from '../events/index.ts';
import { hashPassword } from '../auth/index.ts';
import {
  findMembership,
  joinAsExternal,
  putMembership,
  type Membership,
} from '../members/index.ts';
import { settleInvitationNotifications } from '../notifications/index.ts';
import { findOrCreateUser, findUserByEmail, findUserById, type UserRow } from '../users/index.ts';
import { announceInvitation, offerOf } from './announce.ts';
import {
  decideInvitation,
  grantIfOrganizationAdmin,
  insertInvitation,
  lockPendingInvitation,
  placeOf,
  type Target,
} from './repo.ts';
import { newInvitationToken } from './tokens.ts';

/** What an invitation made by this actor is to: their route's workspace, else its organization. */
export function targetOf(actor: Actor): Target {
  const organization = { id: actor.organization.id, name: actor.organization.name };
  return actor.client
    ? { kind: 'client', organization, client: { id: actor.client.id, name: actor.client.name } }
    : { kind: 'organization', organization, client: null };
}

/**
 * Spec §6: one may offer (or resend) only a role one may act on, with the role that counts where
 * the invitation is to (an ADMIN cannot invite an OWNER; a workspace MANAGER no ADMIN).
 */
function assertMayOffer(actor: Actor, target: Target, role: Role) {
  const acting = target.client ? effectiveWorkspaceRole(actor) : actor.orgRole;
  if (!canActOnRole(acting, role)) {
    throw forbidden(`Your role cannot give the role ${ROLE_NAMES[role]}.`);
  }
}

const where = (target: Target) => (target.client ? 'workspace' : 'organization');
const alreadyMember = (target: Target) =>
  conflict(ErrorCode.ALREADY_MEMBER, `This person is already a member of the ${where(target)}.`);
const invitationPending = (target: Target) =>
  conflict(
    ErrorCode.INVITATION_PENDING,
    `This person's invitation to the ${where(target)} is still pending: send it again instead.`,
  );

export const toInvitedMember = (membership: Membership, user: UserRow): InvitedMember => ({
  id: membership.id,
  user: { id: user.id, email: user.email, first_name: user.first_name, last_name: user.last_name },
  role: { key: membership.role, name: ROLE_NAMES[membership.role] },
  status: membership.status,
});

/**
 * Runs an invitation's transaction, then has its e-mail delivered. The organization's row lock
 * orders invitations to one organization, so a duplicate is found by the checks; the partial
 * unique indexes of `invitations` stay the last word, and their violation is the same 409.
 */
async function inTransaction<T>(
  ctx: AppContext,
  target: Target,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await ctx.db.transaction(async (tx) => {
      const tenant = { organizationId: target.organization.id, clientId: target.client?.id };
      if (!(await lockTenant(tx, tenant))) throw notFound();
      return work(tx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw invitationPending(target);
    throw err;
  }
  ctx.outbox.kick();
  return result;
}

/** A replaced or stale invitation: its token stops working, its notification is done. */
async function revoke(tx: Tx, invitationId: string, now: Date) {
  await decideInvitation(tx, invitationId, 'REVOKED', now);
  await settleInvitationNotifications(tx, invitationId);
}

/**
 * Whether this person may be invited or added here: an accepted member is a 409, and so is one
 * whose invitation is pending and unexpired. An expired one (or one whose pending membership is
 * gone) is revoked, so a new one can take its place. The invitation is locked before the
 * membership is read: an acceptance in flight is seen finished.
 */
async function admit(
  tx: Tx,
  target: Target,
  userId: string,
  now: Date,
): Promise<Membership | undefined> {
  const pending = await lockPendingInvitation(tx, target, userId);
  const existing = await findMembership(tx, target, userId);
  if (existing?.status === 'MEMBER') throw alreadyMember(target);
  if (pending) {
    if (existing?.status === 'PENDING' && pending.expires_at > now) throw invitationPending(target);
    await revoke(tx, pending.id, now);
  }
  return existing;
}

/**
 * Writes the membership offered, after the plan's member limit: a new organization member (or
 * one moving between internal and external) counts for the organization; someone new to a
 * workspace's organization becomes its external member too.
 */
async function offerMembership(
  ctx: AppContext,
  tx: Tx,
  target: Target,
  userId: string,
  offer: { role: Role; status: 'PENDING' | 'MEMBER'; invitedBy: string },
  existing: Membership | undefined,
): Promise<Membership> {
  const organizationId = target.organization.id;
  if (target.client) {
    const orgTarget: Target = { ...target, kind: 'organization', client: null };
    if (!(await findMembership(tx, orgTarget, userId))) {
      await assertMemberLimit(ctx, tx, organizationId, 'external');
    }
    await joinAsExternal(tx, organizationId, userId, offer);
  } else if (!existing || isInternalRole(existing.role) !== isInternalRole(offer.role)) {
    await assertMemberLimit(
      ctx,
      tx,
      organizationId,
      isInternalRole(offer.role) ? 'internal' : 'external',
    );
  }
  return putMembership(tx, target, userId, offer);
}

/** A new invitation of this person, announced by notification and e-mail. */
async function sendInvitation(
  tx: Tx,
  ctx: AppContext,
  target: Target,
  sent: { invitee: UserRow; inviter: UserRow; role: Role },
): Promise<void> {
  const { token, hash } = newInvitationToken();
  const invitation = await insertInvitation(tx, target, {
    userId: sent.invitee.id,
    role: sent.role,
    tokenHash: hash,
    invitedBy: sent.inviter.id,
    expiresAt: new Date(ctx.clock.now().getTime() + INVITATION_TTL_MS),
  });
  await announceInvitation(tx, ctx, { ...sent, target, invitation, token });
  await recordChangeEvents(tx, target.organization.id, ctx.clock.now(), [
    {
      type: 'invitation.sent',
      data: {
        ...placeOf(invitation),
        invitation_id: invitation.id,
        user_id: sent.invitee.id,
        email: sent.invitee.email,
        role: sent.role,
        expires_at: invitation.expires_at.toISOString(),
      },
    },
  ]);
}

/** An invitation's request, under an organization (its roles) or a workspace (all roles). */
type InvitationInput = Omit<OrganizationInvitation, 'role'> & { role: Role };

/**
 * The invitee's account (found, or made from the request) and the membership offered, once
 * `admit` let them in.
 */
async function placeMember(
  tx: Tx,
  ctx: AppContext,
  target: Target,
  actor: Actor,
  input: InvitationInput,
  account: Pick<UserRow, 'password_hash' | 'email_verified_at'> & { status: MembershipStatus },
) {
  const { user, created } = await findOrCreateUser(tx, input.email, {
    first_name: input.first_name ?? '',
    last_name: input.last_name ?? '',
    password_hash: account.password_hash,
    email_verified_at: account.email_verified_at,
    // Invited people join an organization; creating organizations is for those who register.
    can_create_client: false,
  });
  const existing = await admit(tx, target, user.id, ctx.clock.now());
  const offer = { role: input.role, status: account.status, invitedBy: actor.userId };
  const membership = await offerMembership(ctx, tx, target, user.id, offer, existing);
  return { user, created, membership };
}

/**
 * Invites by e-mail (POST …/users/invitation/): an unknown address gets a new account, unverified
 * and without a password; the membership waits (PENDING) for the invitee's answer.
 */
export async function invite(
  ctx: AppContext,
  actor: Actor,
  input: InvitationInput,
): Promise<InvitedMember> {
  const target = targetOf(actor);
  assertMayOffer(actor, target, input.role);
  return inTransaction(ctx, target, async (tx) => {
    const { user, membership } = await placeMember(tx, ctx, target, actor, input, {
      status: 'PENDING',
      password_hash: null,
      email_verified_at: null,
    });
    await sendInvitation(tx, ctx, target, { invitee: user, inviter: actor.user, role: input.role });
    return toInvitedMember(membership, user);
  });
}

/**
 * Adds a member at once (POST …/users/force-invitation/). A new account gets the password given
 * (argon2id) and a verified e-mail; an existing account keeps its own password: an inviter never
 * sets another person's. The e-mail says how to sign in, never the password (decision 0008).
 */
export async function forceInvite(
  ctx: AppContext,
  actor: Actor,
  input: InvitationInput & { password: string },
): Promise<InvitedMember> {
  const target = targetOf(actor);
  assertMayOffer(actor, target, input.role);
  const problem = passwordProblem(input.password, input.email);
  if (problem) throw fieldError('password', problem, ErrorCode.WEAK_PASSWORD);
  // Hashed before the transaction (argon2 takes a while), only when the account looks new.
  const known = await findUserByEmail(ctx.db, input.email);
  const passwordHash = known ? null : await hashPassword(input.password);
  return inTransaction(ctx, target, async (tx) => {
    const { user, created, membership } = await placeMember(tx, ctx, target, actor, input, {
      status: 'MEMBER',
      password_hash: passwordHash,
      email_verified_at: ctx.clock.now(),
    });
    await grantIfOrganizationAdmin(tx, target, user.id, input.role);
    await recordMemberAdded(tx, ctx, {
      target,
      actorId: actor.userId,
      member: user,
      role: input.role,
      via: 'force-invitation',
    });
    const offer = offerOf(target, actor.user, input.role);
    await enqueueMail(
      tx,
      ctx.clock,
      memberAddedMail(ctx.mail, user.email, user.first_name, { ...offer, newAccount: created }),
    );
    return toInvitedMember(membership, user);
  });
}

/**
 * ADD_MEMBER in the organization's log, with who added whom, where and how, and its event
 * member.added; an accepted invitation's acceptance too (invitation.accepted).
 */
export async function recordMemberAdded(
  tx: Tx,
  ctx: AppContext,
  added: {
    target: Target;
    actorId: string;
    member: UserRow;
    role: Role;
    via: 'force-invitation' | { invitationId: string };
  },
): Promise<void> {
  const { target, member, role, via } = added;
  const place = placeOf({ client_id: target.client?.id ?? null });
  const who = { ...place, user_id: member.id, email: member.email, role };
  await recordActivityWithEvents(
    tx,
    {
      userId: added.actorId,
      action: ActivityAction.ADD_MEMBER,
      objectType: target.client ? 'client' : 'organization',
      objectId: target.client?.id ?? target.organization.id,
      organizationId: target.organization.id,
      data: {
        user_id: member.id,
        email: member.email,
        role,
        via: via === 'force-invitation' ? via : 'invitation',
        ...(target.client && {
          app_profile: ctx.config.appProfile,
          client_id: target.client.id,
          client_name: target.client.name,
        }),
      },
      at: ctx.clock.now(),
    },
    via === 'force-invitation'
      ? [{ type: 'member.added', data: { ...who, via: 'force_invitation' } }]
      : [
          { type: 'invitation.accepted', data: { ...who, invitation_id: via.invitationId } },
          { type: 'member.added', data: { ...who, via: 'invitation' } },
        ],
  );
}

/**
 * Sends a pending invitation again (POST …/users/{userId}/resend-invitation/): the old row is
 * revoked (its token stops working, its notification is done) and a new one is sent. Only for a
 * PENDING membership with its invitation (409 otherwise; 404 for someone with no membership).
 */
export async function resendInvitation(
  ctx: AppContext,
  actor: Actor,
  userId: string,
): Promise<InvitedMember> {
  const target = targetOf(actor);
  return inTransaction(ctx, target, async (tx) => {
    const pending = await lockPendingInvitation(tx, target, userId);
    const membership = await findMembership(tx, target, userId);
    const invitee = membership && (await findUserById(tx, userId));
    if (!membership || !invitee) throw notFound('This person is not a member here.');
    if (membership.status !== 'PENDING' || !pending) {
      throw conflict(
        ErrorCode.INVITATION_NOT_PENDING,
        'Only a pending invitation can be sent again: this person is not waiting for one.',
      );
    }
    assertMayOffer(actor, target, pending.role);
    await revoke(tx, pending.id, ctx.clock.now());
    await sendInvitation(tx, ctx, target, { invitee, inviter: actor.user, role: pending.role });
    return toInvitedMember(membership, invitee);
  });
}
