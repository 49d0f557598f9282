import {
  ErrorCode,
  type BalanceHistoryQuery,
  type LedgerEntry,
  type LedgerEntryType,
  type LedgerSource,
} from '@portolan/contract';
import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { balanceServices, billingAccounts, ledgerEntries, users } from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { pageFromRows, rowsOf, windowTotal } from '../../lib/pagination.ts';
import type { AccountRow } from './account.ts';

/**
 * The ledger of an organization's balance. `appendEntry` is the only way the balance moves: in
 * the caller's transaction, on the account row the caller locked (lockAccount), it writes the
 * entry with the balance after it and sets the account to that balance, so the sum of the
 * entries always equals the balance. Entries are never changed (a trigger refuses UPDATE).
 */

export type LedgerRow = typeof ledgerEntries.$inferSelect;

export interface NewEntry {
  type: LedgerEntryType;
  /** Signed, minor units. */
  amount: number;
  description: string;
  reference?: string;
  source: LedgerSource;
  createdBy?: string | null;
  serviceId?: string | null;
  quantity?: number | null;
  unitPrice?: number | null;
  idempotencyKey?: string | null;
  /** Who sent the key (`callerOf`): keys are per caller. */
  idempotencyCaller?: string | null;
  requestFingerprint?: string | null;
  checkoutId?: string | null;
  invoiceId?: string | null;
  refundOf?: string | null;
  /** The workspace a charge (and its refund) was for. */
  clientId?: string | null;
}

export const insufficientBalance = (available: number, amount: number) =>
  new AppError(
    ErrorCode.INSUFFICIENT_BALANCE,
    'The balance is too low for this charge. Add funds, then try again.',
    { available_balance: available, amount },
  );

/** Appends an entry and moves the locked account's balance with it; refuses to go below zero. */
export async function appendEntry(
  tx: Tx,
  account: AccountRow,
  entry: NewEntry,
): Promise<{ row: LedgerRow; account: AccountRow }> {
  const balanceAfter = account.available_balance + entry.amount;
  if (balanceAfter < 0) throw insufficientBalance(account.available_balance, -entry.amount);
  const [row] = await tx
    .insert(ledgerEntries)
    .values({
      organization_id: account.organization_id,
      type: entry.type,
      amount: entry.amount,
      balance_after: balanceAfter,
      currency: account.currency,
      description: entry.description,
      reference: entry.reference ?? '',
      source: entry.source,
      created_by: entry.createdBy ?? null,
      service_id: entry.serviceId ?? null,
      quantity: entry.quantity ?? null,
      unit_price: entry.unitPrice ?? null,
      idempotency_key: entry.idempotencyKey ?? null,
      idempotency_caller: entry.idempotencyCaller ?? null,
      request_fingerprint: entry.requestFingerprint ?? null,
      checkout_id: entry.checkoutId ?? null,
      invoice_id: entry.invoiceId ?? null,
      refund_of: entry.refundOf ?? null,
      client_id: entry.clientId ?? null,
    })
    .returning();
  const [updated] = await tx
    .update(billingAccounts)
    .set({ available_balance: balanceAfter })
    .where(eq(billingAccounts.organization_id, account.organization_id))
    .returning();
  return { row: row!, account: updated! };
}

// ---- reading ---------------------------------------------------------------------------------

const refunds = alias(ledgerEntries, 'refunds');

/** Entries with what the DTO shows beside them: service, member, and a charge's refund. */
function selectEntries(db: Db | Tx) {
  return db
    .select({
      entry: ledgerEntries,
      service: { key: balanceServices.key, name: balanceServices.name },
      user: {
        id: users.id,
        email: users.email,
        first_name: users.first_name,
        last_name: users.last_name,
      },
      refunded_by: refunds.id,
      total: windowTotal,
    })
    .from(ledgerEntries)
    .leftJoin(balanceServices, eq(balanceServices.id, ledgerEntries.service_id))
    .leftJoin(users, eq(users.id, ledgerEntries.created_by))
    .leftJoin(refunds, eq(refunds.refund_of, ledgerEntries.id));
}
type SelectedEntry = Awaited<ReturnType<ReturnType<typeof selectEntries>['execute']>>[number];

export function toLedgerEntryDto(r: Omit<SelectedEntry, 'total'>): LedgerEntry {
  const e = r.entry;
  return {
    id: e.id,
    type: e.type,
    amount: e.amount,
    balance_after: e.balance_after,
    currency: e.currency,
    description: e.description,
    reference: e.reference,
    service: r.service?.key ? { key: r.service.key, name: r.service.name } : null,
    quantity: e.quantity,
    source: e.source,
    user: r.user?.id ? r.user : null,
    refund_of: e.refund_of,
    refunded_by: r.refunded_by ?? null,
    created: e.created_at.toISOString(),
  };
}

/** One entry of the organization as the history shows it. */
export async function findEntryDto(
  db: Db | Tx,
  organizationId: string,
  entryId: string,
): Promise<LedgerEntry | undefined> {
  const [row] = await selectEntries(db).where(
    and(eq(ledgerEntries.id, entryId), eq(ledgerEntries.organization_id, organizationId)),
  );
  return row && toLedgerEntryDto(row);
}

/** The start of a YYYY-MM-DD day, UTC. */
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

/**
 * GET …/balance/history: newest first; `from_date` and `to_date` are whole days (UTC, both
 * included), `type` one kind of entry. One statement per page (the total rides along).
 */
export async function listEntries(db: Db, organizationId: string, query: BalanceHistoryQuery) {
  const filters: SQL[] = [eq(ledgerEntries.organization_id, organizationId)];
  if (query.from_date) filters.push(gte(ledgerEntries.created_at, dayStart(query.from_date)));
  if (query.to_date)
    filters.push(
      lt(ledgerEntries.created_at, new Date(dayStart(query.to_date).getTime() + days(1))),
    );
  if (query.type) filters.push(eq(ledgerEntries.type, query.type));
  const where = and(...filters);
  const rows = await selectEntries(db)
    .where(where)
    .orderBy(desc(ledgerEntries.created_at), desc(ledgerEntries.id))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  return pageFromRows(query, rows, toLedgerEntryDto, async () => db.$count(ledgerEntries, where));
}
