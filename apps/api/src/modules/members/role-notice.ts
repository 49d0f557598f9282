import { ROLE_NAMES, type Role } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { createNotification } from '../notifications/index.ts';

/**
 * Tells a member, in the transaction of the change, that their role in an organization or a
 * workspace changed: a ROLE_CHANGED notification (status DONE: it only tells) with the old and
 * the new role. Nobody is told of a change they made themselves.
 */
export async function tellRoleChanged(
  ctx: AppContext,
  tx: Tx,
  change: {
    actorId: string;
    userId: string;
    organization: { id: string; name: string };
    client: { id: string; name: string } | null;
    from: Role;
    to: Role;
  },
): Promise<void> {
  const { actorId, userId, organization, client, from, to } = change;
  if (actorId === userId) return;
  const where = client ? `the workspace ${client.name}` : `the organization ${organization.name}`;
  await createNotification(tx, {
    type: 'ROLE_CHANGED',
    status: 'DONE',
    recipientId: userId,
    authorId: actorId,
    organizationId: organization.id,
    clientId: client?.id ?? null,
    meta: { type: client ? 'client' : 'organization', id: client?.id ?? organization.id, from, to },
    extraMessage: `Your role in ${where} changed from ${ROLE_NAMES[from]} to ${ROLE_NAMES[to]}.`,
    at: ctx.clock.now(),
  });
}
