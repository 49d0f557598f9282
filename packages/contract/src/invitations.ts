import { z } from 'zod';
import { MEMBERSHIP_STATUSES, ORG_ROLES, WORKSPACE_ROLES } from './access.ts';
import { emailSchema } from './auth.ts';
import { PASSWORD_MAX_LENGTH } from './password-policy.ts';
import { roleRefSchema } from './tenant-fields.ts';
import { secretText, singleLine } from './text.ts';

/**
 * Invitations to an organization or a workspace (REFERENCE "Invitations", decision 0008): the
 * constants, and the requests and answers of inviting, force-inviting, resending, accepting,
 * declining and the workspace's suggestions.
 */

/** What an invitation is to: the `type` of an INVITATION notification's meta. */
export const INVITATION_KINDS = ['organization', 'client'] as const;
export type InvitationKind = (typeof INVITATION_KINDS)[number];

/** PENDING until accepted or declined; REVOKED when a resend replaced it or the member was removed. */
export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED', 'REVOKED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** An invitation token is valid this long (7 days). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Workspace invitation suggestions: 10 unless asked, at most 50. */
export const INVITATION_SUGGESTION_LIMIT = 10;
export const INVITATION_SUGGESTION_MAX_LIMIT = 50;

// ---- inviting ---------------------------------------------------------------------------------

const personName = (which: string) =>
  singleLine().max(150, `Keep the ${which} name under 151 characters.`).optional();
const passwordField = secretText().min(1, 'Enter a password.').max(PASSWORD_MAX_LENGTH);

/**
 * POST /v1/organizations/{orgId}/users/invitation/: the names are used only for an e-mail that
 * has no account yet (nobody renames someone else's account).
 */
export const organizationInvitationSchema = z.strictObject({
  email: emailSchema,
  role: z.enum(ORG_ROLES, `Choose one of ${ORG_ROLES.join(', ')}.`).default('STAFF'),
  first_name: personName('first'),
  last_name: personName('last'),
});
export type OrganizationInvitation = z.infer<typeof organizationInvitationSchema>;

/** POST /v1/clients/{id}/users/invitation/: the role is a workspace role. */
export const clientInvitationSchema = organizationInvitationSchema.extend({
  role: z.enum(WORKSPACE_ROLES, `Choose one of ${WORKSPACE_ROLES.join(', ')}.`).default('STAFF'),
});
export type ClientInvitation = z.infer<typeof clientInvitationSchema>;

/**
 * The force-invitations (…/users/force-invitation/): the member is added at once. `password` is
 * the new account's (the password policy applies); an existing account keeps its own.
 */
export const organizationForceInvitationSchema = organizationInvitationSchema.extend({
  password: passwordField,
});
export type OrganizationForceInvitation = z.infer<typeof organizationForceInvitationSchema>;
export const clientForceInvitationSchema = clientInvitationSchema.extend({
  password: passwordField,
});
export type ClientForceInvitation = z.infer<typeof clientForceInvitationSchema>;

/** The invited (or added) member: the membership's id, its person, role and status. */
export const invitedMemberSchema = z.object({
  id: z.uuid(),
  user: z.object({
    id: z.uuid(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
  }),
  role: roleRefSchema,
  /** PENDING after an invitation or a resend, MEMBER after a force-invitation. */
  status: z.enum(MEMBERSHIP_STATUSES),
});
export type InvitedMember = z.infer<typeof invitedMemberSchema>;

// ---- accepting --------------------------------------------------------------------------------

/**
 * POST /v1/organizations/users/invitation/accept/ and /v1/clients/users/invitation/accept/. No
 * session needed: the token is the credential. Names and a password are taken only from an
 * invitee who has never had a password (after an answer with `needs_password: true`).
 */
export const invitationAcceptSchema = z.strictObject({
  token: singleLine().min(1, 'Give the invitation token.').max(200),
  first_name: personName('first'),
  last_name: personName('last'),
  password: passwordField.optional(),
});
export type InvitationAccept = z.infer<typeof invitationAcceptSchema>;

const namedRef = z.object({ id: z.uuid(), name: z.string() });

/** What both answers of an acceptance say about the invitation. */
const invitationTarget = {
  type: z.enum(INVITATION_KINDS),
  organization: namedRef,
  /** The workspace of a workspace invitation; null for an organization invitation. */
  client: namedRef.nullable(),
};

/** The invitee has never had a password and sent none: nothing was used up; ask and send again. */
export const invitationNeedsPasswordSchema = z.object({
  needs_password: z.literal(true),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  ...invitationTarget,
});

/**
 * Accepted. `detail` is spec §8's text; `token` is a session token (as sign-in answers) when this
 * request set the account's password, so the invitee lands signed in.
 */
export const invitationAcceptedSchema = z.object({
  needs_password: z.literal(false),
  detail: z.string(),
  ...invitationTarget,
  token: z.string().optional().describe('Session token, when the password was set just now'),
});

export const invitationAcceptResponseSchema = z.discriminatedUnion('needs_password', [
  invitationNeedsPasswordSchema,
  invitationAcceptedSchema,
]);
export type InvitationAcceptResponse = z.infer<typeof invitationAcceptResponseSchema>;

// ---- workspace suggestions --------------------------------------------------------------------

/** GET /v1/clients/{id}/users/invitation/suggestion?key=&limit= */
export const invitationSuggestionQuerySchema = z.strictObject({
  key: singleLine().max(200).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(INVITATION_SUGGESTION_MAX_LIMIT)
    .default(INVITATION_SUGGESTION_LIMIT),
});
export type InvitationSuggestionQuery = z.infer<typeof invitationSuggestionQuerySchema>;

export const invitationSuggestionSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.string().nullable(),
});
export type InvitationSuggestion = z.infer<typeof invitationSuggestionSchema>;
