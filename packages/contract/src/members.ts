/** Members of organizations and workspaces (spec §6, REFERENCE "Who may do what"). */

/**
 * What happens to a removed organization member's workspace memberships (REFERENCE): removed
 * everywhere, or kept in their workspaces as an external (CLIENT) member of the organization.
 */
export const MEMBER_REMOVAL_CHOICES = ['remove_everywhere', 'keep_as_external'] as const;
export type MemberRemovalChoice = (typeof MEMBER_REMOVAL_CHOICES)[number];
