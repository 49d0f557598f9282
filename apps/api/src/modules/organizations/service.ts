import { and, eq, isNull } from 'drizzle-orm';
import {
  ErrorCode,
  ROLE_NAMES,
  type MembershipStatus,
  type Organization,
  type OrganizationCreate,
  type OrganizationUpdate,
  type OrgRole,
  type Paginated,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import { organizations } from '../../db/schema/index.ts';
import { AppError, fieldError, forbidden, notAuthenticated, notFound } from '../../lib/errors.ts';
import { type Actor, type AuthState } from '../access/index.ts';
import { ActivityAction, recordActivity } from '../activities/index.ts';
import { isOwnUploadUrl } from '../uploads/index.ts';
import { findUserById } from '../users/index.ts';
import { startTrial } from '../billing/index.ts';
import { addOrganizationOwner } from '../members/index.ts';
import { countAcceptedOrganizations, countMyOrganizations, pageMyOrganizations } from './repo.ts';
import { pageOf } from '../../lib/pagination.ts';

type OrganizationRow = typeof organizations.$inferSelect;

export function toOrganizationDto(
  row: OrganizationRow,
  membership: { role: OrgRole; status: MembershipStatus },
): Organization {
  return {
    id: row.id,
    name: row.name,
    logo: row.logo,
    has_access: membership.status === 'MEMBER',
    role: { key: membership.role, name: ROLE_NAMES[membership.role] },
    created: row.created_at.toISOString(),
  };
}

const LOGO_FROM_UPLOADS = 'Upload the image first (POST /v1/upload/) and use the URL it returns.';

/** GET /v1/organizations/: the caller's organizations (invitations pending included), by name. */
export async function listMyOrganizations(
  ctx: AppContext,
  caller: AuthState,
  query: { page: number; limit: number },
): Promise<Paginated<Organization>> {
  const offset = (query.page - 1) * query.limit;
  const [total, rows] = await Promise.all([
    countMyOrganizations(ctx.db, caller.userId),
    pageMyOrganizations(ctx.db, caller.userId, { limit: query.limit, offset }),
  ]);
  return pageOf(
    total,
    query,
    rows.map((row) => toOrganizationDto(row.organization, row)),
  );
}

/**
 * POST /v1/organizations/: needs `can_create_client`; with billing on, only a user who belongs to
 * no organization yet may create one (spec §5). The creator becomes its OWNER.
 */
export async function createOrganization(
  ctx: AppContext,
  caller: AuthState,
  body: OrganizationCreate,
): Promise<Organization> {
  if (!caller.user.can_create_client) {
    throw forbidden('Your account may not create organizations.');
  }
  if (body.logo && !(await isOwnUploadUrl(ctx.db, caller.userId, body.logo))) {
    throw fieldError('logo', LOGO_FROM_UPLOADS);
  }
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    if (ctx.config.features.billing) {
      // Under the caller's row lock, so two creations at once cannot both find no organization.
      if (!(await findUserById(tx, caller.userId, { lock: true }))) throw notAuthenticated();
      if ((await countAcceptedOrganizations(tx, caller.userId)) > 0) {
        throw new AppError(
          ErrorCode.ORGANIZATION_LIMIT,
          'You already belong to an organization: with billing, each account creates at most its first one.',
        );
      }
    }
    const [org] = await tx
      .insert(organizations)
      .values({ name: body.name, logo: body.logo ?? null, owner_id: caller.userId })
      .returning();
    await addOrganizationOwner(tx, org!.id, caller.userId);
    await startTrial(ctx, tx, org!.id, caller.userId);
    await recordActivity(tx, {
      userId: caller.userId,
      action: ActivityAction.CREATE_ORGANIZATION,
      objectType: 'organization',
      objectId: org!.id,
      organizationId: org!.id,
      data: { organization_name: org!.name },
      at: now,
    });
    return toOrganizationDto(org!, { role: 'OWNER', status: 'MEMBER' });
  });
}

/** The actor's role in the organization the access layer resolved (always an accepted member). */
const membershipOf = (actor: Actor) => ({ role: actor.orgRole!, status: 'MEMBER' as const });

/** GET /v1/organizations/{id}/: any member; the access layer already loaded it. */
export function getOrganization(actor: Actor): Organization {
  return toOrganizationDto(actor.organization, membershipOf(actor));
}

/**
 * PUT /v1/organizations/{id}/ (OWNER, ADMIN): the name, and the logo when given (null removes
 * it). A new logo must be one of the caller's uploads; the current one may be sent back as is.
 */
export async function updateOrganization(
  ctx: AppContext,
  actor: Actor,
  body: OrganizationUpdate,
): Promise<Organization> {
  const current = actor.organization;
  if (body.logo && body.logo !== current.logo) {
    if (!(await isOwnUploadUrl(ctx.db, actor.userId, body.logo))) {
      throw fieldError('logo', LOGO_FROM_UPLOADS);
    }
  }
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(organizations)
      .set({ name: body.name, ...(body.logo !== undefined && { logo: body.logo }) })
      .where(and(eq(organizations.id, current.id), isNull(organizations.deleted_at)))
      .returning();
    if (!row) throw notFound('Not found, or you are not a member of it.');
    await recordActivity(tx, {
      userId: actor.userId,
      action: ActivityAction.UPDATE_ORGANIZATION,
      objectType: 'organization',
      objectId: row.id,
      organizationId: row.id,
      data: {
        organization_name: row.name,
        ...(row.name !== current.name && { previous_name: current.name }),
        ...(row.logo !== current.logo && { logo_changed: true }),
      },
      at: ctx.clock.now(),
    });
    return toOrganizationDto(row, membershipOf(actor));
  });
}
