import type { OrganizationNotificationCreate } from '@portolan/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { clients, notifications, organizationMembers } from '../../db/schema/index.ts';
import { fieldError } from '../../lib/errors.ts';
import type { Actor } from '../access/index.ts';

/**
 * POST /v1/organizations/{orgId}/notifications/ (issue 21 item 6): a module's back end, with an
 * API key (or an OWNER or ADMIN), tells named members of the organization something. Each gets a
 * MODULE notification in their bell and on their open streams; the key that sent it is in its
 * meta. Every recipient must be a member: one who is not refuses the whole call (400, nothing sent).
 */
export async function sendOrganizationNotification(
  ctx: AppContext,
  actor: Actor,
  input: OrganizationNotificationCreate,
): Promise<{ notified: number }> {
  const organizationId = actor.organization.id;
  const recipients = [...new Set(input.user_ids)];
  const members = await ctx.db
    .select({ id: organizationMembers.user_id })
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organization_id, organizationId),
        eq(organizationMembers.status, 'MEMBER'),
        inArray(organizationMembers.user_id, recipients),
      ),
    );
  const known = new Set(members.map((m) => m.id));
  const strangers = recipients.filter((id) => !known.has(id));
  if (strangers.length > 0)
    throw fieldError('user_ids', `Not a member of this organization: ${strangers.join(', ')}.`);
  if (input.client_id) {
    const [workspace] = await ctx.db
      .select({ id: clients.id })
      .from(clients)
      .where(
        and(
          eq(clients.id, input.client_id),
          eq(clients.organization_id, organizationId),
          isNull(clients.deleted_at),
        ),
      );
    if (!workspace) throw fieldError('client_id', 'Not a workspace of this organization.');
  }
  const now = ctx.clock.now();
  const meta = {
    module: input.module ?? null,
    api_key: actor.apiKey ? { id: actor.apiKey.id, name: actor.apiKey.name } : null,
  };
  // One statement: migration 0011's trigger announces each row to its recipient's open streams.
  await ctx.db.insert(notifications).values(
    recipients.map((recipientId) => ({
      type: 'MODULE' as const,
      status: 'DONE' as const,
      recipient_id: recipientId,
      author_id: actor.userId,
      organization_id: organizationId,
      client_id: input.client_id ?? null,
      meta,
      extra_message: input.message,
      created_at: now,
      modified_at: now,
    })),
  );
  return { notified: recipients.length };
}
