import {
  ActivityAction,
  ErrorCode,
  meetsMfaPolicy,
  type ComplianceListResponse,
  type ComplianceQuery,
  type SecurityPolicy,
  type SecurityPolicyUpdate,
} from '@portolan/contract';
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import {
  organizationMembers,
  organizations,
  passkeys,
  userMfa,
  users,
} from '../../db/schema/index.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { pageOf, rowsOf } from '../../lib/pagination.ts';
import { mfaEnforcedFrom, type Actor } from '../access/index.ts';
import { recordActivity } from '../activities/index.ts';

type OrganizationRow = typeof organizations.$inferSelect;

const toPolicy = (row: OrganizationRow): SecurityPolicy => ({
  require_mfa: row.mfa_policy,
  grace_days: row.mfa_grace_days,
  since: row.mfa_policy !== 'off' ? (row.mfa_policy_since?.toISOString() ?? null) : null,
  enforced_from: mfaEnforcedFrom(row)?.toISOString() ?? null,
});

export const getSecurityPolicy = (actor: Actor): SecurityPolicy => toPolicy(actor.organization);

/**
 * PUT …/security-policy/ (OWNER, with a step-up): the OWNER must meet the policy first, so it
 * never locks out the one who set it. A stricter requirement starts a new grace; changing only
 * the grace keeps its start. Recorded in the organization's activity log.
 */
export async function updateSecurityPolicy(
  ctx: AppContext,
  actor: Actor,
  body: SecurityPolicyUpdate,
): Promise<SecurityPolicy> {
  if (!meetsMfaPolicy(body.require_mfa, actor.factors)) {
    throw conflict(
      ErrorCode.MFA_NOT_ENABLED,
      body.require_mfa === 'phishing_resistant'
        ? 'Add a passkey to your own account first: the policy would refuse you too.'
        : 'Set up two-step verification for your own account first: the policy would refuse you too.',
    );
  }
  const current = actor.organization;
  const now = ctx.clock.now();
  const since =
    body.require_mfa === 'off'
      ? null
      : body.require_mfa === current.mfa_policy && current.mfa_policy_since
        ? current.mfa_policy_since
        : now;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(organizations)
      .set({
        mfa_policy: body.require_mfa,
        mfa_grace_days: body.grace_days,
        mfa_policy_since: since,
      })
      .where(and(eq(organizations.id, current.id), isNull(organizations.deleted_at)))
      .returning();
    if (!row) throw notFound('Not found, or you are not a member of it.');
    await recordActivity(tx, {
      userId: actor.userId,
      action: ActivityAction.UPDATE_SECURITY_POLICY,
      objectType: 'organization',
      objectId: row.id,
      organizationId: row.id,
      data: {
        organization_name: row.name,
        require_mfa: row.mfa_policy,
        grace_days: row.mfa_grace_days,
        previous_require_mfa: current.mfa_policy,
      },
      at: now,
    });
    return toPolicy(row);
  });
}

/**
 * GET …/security-policy/compliance/ (OWNER): the organization's members with their factors, those
 * who do not meet the policy first; one query for the page, one for the counts.
 */
export async function listCompliance(
  ctx: AppContext,
  actor: Actor,
  query: ComplianceQuery,
): Promise<ComplianceListResponse> {
  const policy = actor.organization.mfa_policy;
  const hasTotp = isNotNull(userMfa.totp_confirmed_at);
  const hasPasskey = sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys.user_id} = ${users.id})`;
  // Written over columns even when constant: PostgreSQL refuses a constant in ORDER BY.
  const compliantSql =
    policy === 'off'
      ? sql<boolean>`${users.id} is not null`
      : policy === 'any'
        ? sql<boolean>`(${hasTotp} or ${hasPasskey})`
        : sql<boolean>`${hasPasskey}`;
  const members = and(
    eq(organizationMembers.organization_id, actor.organization.id),
    eq(organizationMembers.status, 'MEMBER'),
    isNull(users.deleted_at),
  );
  const filter =
    query.compliant === undefined
      ? members
      : and(members, query.compliant === 'true' ? compliantSql : sql`not (${compliantSql})`);
  const base = () =>
    ctx.db
      .select({
        user_id: users.id,
        email: users.email,
        first_name: users.first_name,
        last_name: users.last_name,
        role: organizationMembers.role,
        totp: hasTotp,
        passkey: hasPasskey,
        compliant: compliantSql,
      })
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.user_id))
      .leftJoin(userMfa, eq(userMfa.user_id, users.id));
  const rows = await base()
    .where(filter)
    .orderBy(asc(compliantSql), asc(users.email))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  const [counts] = await ctx.db
    .select({
      total: sql<number>`count(*) filter (where ${filter})`.mapWith(Number),
      nonCompliant: sql<number>`count(*) filter (where not (${compliantSql}))`.mapWith(Number),
    })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.user_id))
    .leftJoin(userMfa, eq(userMfa.user_id, users.id))
    .where(members);
  return {
    ...pageOf(
      counts?.total ?? 0,
      query,
      rows.map((row) => ({
        user_id: row.user_id,
        email: row.email,
        first_name: row.first_name,
        last_name: row.last_name,
        role: row.role,
        factors: [
          ...(row.totp ? (['totp'] as const) : []),
          ...(row.passkey ? (['passkey'] as const) : []),
        ],
        compliant: Boolean(row.compliant),
      })),
    ),
    non_compliant: counts?.nonCompliant ?? 0,
  };
}
