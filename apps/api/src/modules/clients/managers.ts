import { ErrorCode, isEmailInDomains, type Client, type ClientUpdate } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../access/index.ts';
import type { ClientRow } from './repo.ts';

/**
 * A workspace's account manager and special project manager (REFERENCE "Data"): shown only to
 * users of INTERNAL_EMAIL_DOMAINS, and changed only by them (with the right to change the
 * workspace, which the route's access rule checks). Everyone else never receives the fields, and
 * sending them is a 403: an action their account may not take, like any other the role lacks.
 */
export const MANAGER_FIELDS = ['account_manager', 'special_project_manager'] as const;

/** The caller's e-mail domain is one of INTERNAL_EMAIL_DOMAINS (spec §6 internal staff). */
export const isInternalUser = (ctx: AppContext, actor: Pick<Actor, 'user'>) =>
  isEmailInDomains(actor.user.email, ctx.config.internalEmailDomains);

/** The workspace's answer with the two fields for an internal user; as it is for anyone else. */
export function withManagers(
  ctx: AppContext,
  actor: Pick<Actor, 'user'>,
  dto: Client,
  row: Pick<ClientRow, 'account_manager' | 'special_project_manager'>,
): Client {
  if (!isInternalUser(ctx, actor)) return dto;
  return {
    ...dto,
    account_manager: row.account_manager,
    special_project_manager: row.special_project_manager,
  };
}

/**
 * Refuses a change of the managers by anyone but an internal user (403 naming the fields), and
 * stores an empty text as no manager (null).
 */
export function checkManagerChange(
  ctx: AppContext,
  actor: Pick<Actor, 'user'>,
  patch: ClientUpdate,
): ClientUpdate {
  const sent = MANAGER_FIELDS.filter((field) => patch[field] !== undefined);
  if (sent.length === 0) return patch;
  if (!isInternalUser(ctx, actor)) {
    const message = 'Only the portal’s internal staff can change the managers of a workspace.';
    throw new AppError(
      ErrorCode.PERMISSION_DENIED,
      message,
      sent.map((field) => ({ field, message })),
    );
  }
  const normalized = { ...patch };
  for (const field of sent) if (normalized[field] === '') normalized[field] = null;
  return normalized;
}
