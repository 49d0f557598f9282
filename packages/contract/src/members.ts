import { z } from 'zod';
import { MEMBERSHIP_STATUSES, ORG_ROLES } from './access.ts';
import { MAX_PAGE_LIMIT, ROLES } from './constants.ts';
import { GRANT_ACCESS_MAX, MEMBER_PAGE_SIZE, MEMBER_REMOVAL_CHOICES } from './member-rules.ts';
import { paginated } from './pagination.ts';
import { roleRefSchema } from './tenant-fields.ts';
import { singleLine } from './text.ts';

/**
 * Members of organizations and workspaces: the request and answer schemas of the member calls of
 * spec §7 (REFERENCE "Who may do what"). Their zod-free constants and rules are in
 * member-rules.ts, which the web app imports without zod.
 */

const id = () => z.uuid('Not a valid id.');

export const orgMemberParamsSchema = z.strictObject({ orgId: id(), userId: id() });
export const clientMemberParamsSchema = z.strictObject({ id: id(), userId: id() });

const pageFields = {
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(MEMBER_PAGE_SIZE),
  /** Searches e-mail, first and last name, case-insensitively. */
  key: singleLine().max(200).optional(),
};

const ROLES_MESSAGE = `List organization roles separated by commas: ${ORG_ROLES.join(', ')}.`;
const isOrgRole = (value: string): value is (typeof ORG_ROLES)[number] =>
  (ORG_ROLES as readonly string[]).includes(value);

/** `OWNER,ADMIN,STAFF` (any case, spaces allowed) → the roles; anything else is refused. */
const rolesFilter = singleLine()
  .max(100)
  .transform((value) => value.split(',').map((role) => role.trim().toUpperCase()))
  .refine((roles) => roles.every(isOrgRole), ROLES_MESSAGE)
  .transform((roles) => [...new Set(roles)] as (typeof ORG_ROLES)[number][]);

/** GET /v1/organizations/{orgId}/users/: `roles` keeps only members with those roles. */
export const orgMemberListQuerySchema = z.strictObject({
  ...pageFields,
  roles: rolesFilter.optional(),
});
export type OrgMemberListQuery = z.infer<typeof orgMemberListQuerySchema>;

/** GET /v1/clients/{id}/users/ */
export const clientMemberListQuerySchema = z.strictObject(pageFields);
export type ClientMemberListQuery = z.infer<typeof clientMemberListQuerySchema>;

export const memberUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.string().nullable(),
});
export type MemberUser = z.infer<typeof memberUserSchema>;

const membershipFields = {
  /** The membership's id (the paths name the member by `user.id`). */
  id: z.uuid(),
  user: memberUserSchema,
  role: roleRefSchema,
  /** PENDING until the invitation is accepted. */
  status: z.enum(MEMBERSHIP_STATUSES),
  last_active_at: z.iso.datetime({ offset: true }).nullable(),
  created: z.iso.datetime({ offset: true }),
};

/** A member of an organization, with their organization role. */
export const orgMemberSchema = z.object({
  ...membershipFields,
  /**
   * The workspaces of the organization the member belongs to (pending ones included). Above 0,
   * removing them needs a `choice`.
   */
  client_count: z.number().int(),
});
export type OrgMember = z.infer<typeof orgMemberSchema>;
export const orgMemberPageSchema = paginated(orgMemberSchema);

/** A member of a workspace: `role` and `status` are the workspace membership's. */
export const clientMemberSchema = z.object({
  ...membershipFields,
  /** Their role in the workspace's organization (null if they are not a member of it). */
  organization_role: roleRefSchema.nullable(),
});
export type ClientMember = z.infer<typeof clientMemberSchema>;
export const clientMemberPageSchema = paginated(clientMemberSchema);

/** PUT /v1/organizations/{orgId}/users/{userId}/role/ */
export const orgRoleUpdateSchema = z.strictObject({
  role: z.enum(ORG_ROLES, `Choose one of ${ORG_ROLES.join(', ')}.`),
});
export type OrgRoleUpdate = z.infer<typeof orgRoleUpdateSchema>;

const workspaceRole = z.enum(ROLES, `Choose one of ${ROLES.join(', ')}.`);

/** PUT /v1/clients/{id}/users/{userId}/roles/ */
export const clientRoleUpdateSchema = z.strictObject({ role: workspaceRole });
export type ClientRoleUpdate = z.infer<typeof clientRoleUpdateSchema>;

/**
 * DELETE /v1/organizations/{orgId}/users/{userId}/: `choice` is required when the member still
 * belongs to workspaces of the organization.
 */
export const orgMemberRemovalQuerySchema = z.strictObject({
  choice: z
    .enum(MEMBER_REMOVAL_CHOICES, `Choose ${MEMBER_REMOVAL_CHOICES.join(' or ')}.`)
    .optional(),
});
export type OrgMemberRemovalQuery = z.infer<typeof orgMemberRemovalQuerySchema>;

/** One workspace of the organization on the client-access screen, and the member's place in it. */
export const memberClientAccessSchema = z.object({
  client: z.object({
    id: z.uuid(),
    name: z.string(),
    logo: z.string().nullable(),
    /** False while the workspace waits for approval. */
    active: z.boolean(),
  }),
  /** The member's workspace role; null when they do not belong to it. */
  role: roleRefSchema.nullable(),
  status: z.enum(MEMBERSHIP_STATUSES).nullable(),
});
export type MemberClientAccess = z.infer<typeof memberClientAccessSchema>;

/** POST /v1/organizations/{orgId}/users/{userId}/clients/grant_access/ */
export const grantAccessSchema = z.strictObject({
  clients: z
    .array(z.strictObject({ client_id: id(), role: workspaceRole }))
    .min(1, 'Choose at least one workspace.')
    .max(GRANT_ACCESS_MAX, `Choose at most ${GRANT_ACCESS_MAX} workspaces at a time.`)
    .refine(
      (entries) => new Set(entries.map((e) => e.client_id)).size === entries.length,
      'Name each workspace once.',
    ),
});
export type GrantAccess = z.infer<typeof grantAccessSchema>;
