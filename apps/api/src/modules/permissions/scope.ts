import { ErrorCode, type RuleScope } from '@portolan/contract';
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { accessRules, customRoles } from '../../db/schema/index.ts';
import { AppError, conflict, forbidden } from '../../lib/errors.ts';
import { lockTenant, type Actor } from '../access/index.ts';

/**
 * Where access rules and custom roles live (decision 0008): an organization's (client_id null)
 * are usable in all its workspaces; a workspace's only there. A route under
 * /v1/organizations/{orgId}/ works on the organization's; one under /v1/clients/{id}/ on the
 * workspace's, and also reads the organization's, which it may use but not change.
 */
export interface Scope {
  organizationId: string;
  clientId: string | null;
}

export const scopeOf = (actor: Actor): Scope => ({
  organizationId: actor.organization.id,
  clientId: actor.client?.id ?? null,
});

type ScopedTable = typeof accessRules | typeof customRoles;
type ScopedRow = typeof accessRules.$inferSelect | typeof customRoles.$inferSelect;

/** Live rows that belong to the scope itself. */
export const ownedBy = (t: ScopedTable, scope: Scope): SQL =>
  and(
    eq(t.organization_id, scope.organizationId),
    scope.clientId ? eq(t.client_id, scope.clientId) : isNull(t.client_id),
    isNull(t.deleted_at),
  )!;

/** Live rows usable in the scope: its own and, in a workspace, its organization's. */
export const usableIn = (t: ScopedTable, scope: Scope): SQL =>
  and(
    eq(t.organization_id, scope.organizationId),
    scope.clientId ? or(isNull(t.client_id), eq(t.client_id, scope.clientId)) : isNull(t.client_id),
    isNull(t.deleted_at),
  )!;

/**
 * Serialises the writes of one scope: the tenant's locks in their one order (the organization's
 * row, then the workspace's: `lockTenant`), taken first by every write of rules, roles and a
 * member's permissions, so a name checked free stays free until the transaction ends. The unique
 * index on live names stays as the last word.
 */
export async function lockScope(tx: Tx, scope: Scope): Promise<void> {
  await lockTenant(tx, scope);
}

/** Whether another live row of the scope already has this name, in any case. */
export async function nameIsTaken(
  tx: Tx,
  t: ScopedTable,
  scope: Scope,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: t.id })
    .from(t)
    .where(
      and(
        ownedBy(t, scope),
        sql`lower(${t.name}) = lower(${name})`,
        exceptId ? sql`${t.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export const nameTaken = (what: string, scope: Scope) => {
  const message = `Another ${what} of this ${scope.clientId ? 'workspace' : 'organization'} already has this name.`;
  return conflict(ErrorCode.NAME_TAKEN, message, [{ field: 'name', message }]);
};

/**
 * A row the scope may change: its own (an organization's rule seen from one of its workspaces is
 * changed in the organization's settings), and not made by the system.
 */
export function assertChangeable(row: ScopedRow, scope: Scope, what: string): void {
  if (row.client_id !== scope.clientId) {
    throw forbidden(
      `This ${what} belongs to the organization: change it in the organization's settings.`,
    );
  }
  if (row.is_system) {
    throw new AppError(
      ErrorCode.SYSTEM_MANAGED,
      `This ${what} is made by the system and cannot be changed or deleted.`,
    );
  }
}

const scopeName = (row: { client_id: string | null }): RuleScope =>
  row.client_id ? 'client' : 'organization';

/** The fields a rule and a role answer alike. */
export const scopeFieldsOf = (row: ScopedRow) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  scope: scopeName(row),
  organization: row.organization_id,
  client: row.client_id,
  is_system: row.is_system,
  created: row.created_at.toISOString(),
  modified: row.modified_at.toISOString(),
});

/** A rule or role as another answer names it. */
export const refOf = (row: { id: string; name: string; client_id: string | null }) => ({
  id: row.id,
  name: row.name,
  scope: scopeName(row),
});
