import type { LedgerEntry, LedgerEntryType } from '@portolan/contract';

/** A badge colour per kind of movement; the label comes from LEDGER_ENTRY_TYPE_LABELS. */
export const LEDGER_TYPE_COLORS: Record<LedgerEntryType, string> = {
  'top-up': 'teal',
  charge: 'orange',
  refund: 'blue',
  adjustment: 'gray',
};

/**
 * Who caused a movement: the member (by name, else e-mail; a member since removed has no user),
 * an API key (for the member who made it), the payment of a top-up, or the platform itself (by
 * its brand).
 */
export function ledgerWho(entry: LedgerEntry, brand: string): { name: string; email?: string } {
  if (entry.source === 'payment') return { name: 'Payment' };
  if (entry.source === 'system') return { name: brand };
  const u = entry.user;
  if (!u) return { name: 'A former member' };
  const name = `${u.first_name} ${u.last_name}`.trim() || u.email;
  if (entry.source === 'api_key') return { name: `An API key of ${name}`, email: u.email };
  return name === u.email ? { name } : { name, email: u.email };
}

/** "Label printing × 3": the service a charge (or its refund) drew, and how many units. */
export function ledgerService(entry: LedgerEntry): string | null {
  if (!entry.service) return null;
  return entry.quantity === null ? entry.service.name : `${entry.service.name} × ${entry.quantity}`;
}

/** The history's date fields as the server names them, maybe behind "query." or "querystring.". */
export function dateFieldOf(field: string): 'from_date' | 'to_date' | null {
  const name = field.split('.').pop();
  return name === 'from_date' || name === 'to_date' ? name : null;
}
