import {
  isCountryCode,
  normalizeTaxId,
  TAX_ID_RULES,
  type BillingDetails,
  type BillingDetailsUpdate,
} from '@portolan/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { billingDetails, type BilledTo } from '../../db/schema/index.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { recordSettingChange } from './activity.ts';

/**
 * An organization's billing details (issue 22 item 6): the company, address, country and tax ID
 * that every later invoice and credit note prints. Each document keeps a copy made when it was
 * written (`billed_to`), so changing the details never rewrites what was already issued.
 */

type BillingDetailsRow = typeof billingDetails.$inferSelect;

function toDto(row: BillingDetailsRow | undefined): BillingDetails {
  if (!row) return { company_name: '', address: '', country: null, tax_id: null, updated: null };
  return {
    company_name: row.company_name,
    address: row.address,
    country: row.country,
    tax_id: row.tax_id,
    updated: row.modified_at.toISOString(),
  };
}

/** GET …/billing-details/: before any is saved, empty strings and nulls. */
export async function getBillingDetails(db: Db, organizationId: string): Promise<BillingDetails> {
  const [row] = await db
    .select()
    .from(billingDetails)
    .where(eq(billingDetails.organization_id, organizationId));
  return toDto(row);
}

/** PUT …/billing-details/: made or replaced whole, the tax ID stored normalized (DE123456789). */
export async function saveBillingDetails(
  ctx: AppContext,
  actor: Actor,
  body: BillingDetailsUpdate,
): Promise<BillingDetails> {
  const organizationId = actor.organization.id;
  const values = {
    company_name: body.company_name,
    address: body.address,
    country: body.country,
    tax_id: body.tax_id ? normalizeTaxId(body.tax_id) : null,
    modified_at: ctx.clock.now(),
  };
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    const [row] = await tx
      .insert(billingDetails)
      .values({ organization_id: organizationId, ...values })
      .onConflictDoUpdate({ target: billingDetails.organization_id, set: values })
      .returning();
    await recordSettingChange(ctx, tx, actor, {
      action: 'UPDATE_BILLING_DETAILS',
      data: { company_name: values.company_name, country: values.country, tax_id: values.tax_id },
    });
    return toDto(row);
  });
}

/** What a document written now prints of its buyer: the details as they stand, or null (none). */
export async function billedToNow(tx: Db | Tx, organizationId: string): Promise<BilledTo | null> {
  const [row] = await tx
    .select({
      company_name: billingDetails.company_name,
      address: billingDetails.address,
      country: billingDetails.country,
      tax_id: billingDetails.tax_id,
    })
    .from(billingDetails)
    .where(eq(billingDetails.organization_id, organizationId));
  return row ?? null;
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/**
 * The "Billed to" block of a PDF: the company, each address line, the country's name and the
 * tax ID with what it is called there ("VAT number DE123456789"). A document written before any
 * details were saved names the organization, as invoices always did.
 */
export function billedToBlock(
  billedTo: BilledTo | null,
  organizationName: string,
): { name: string; lines: string[] } {
  if (!billedTo) return { name: organizationName, lines: [] };
  const lines = billedTo.address
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter(Boolean);
  lines.push(countryNames.of(billedTo.country) ?? billedTo.country);
  if (billedTo.tax_id) {
    const rule = isCountryCode(billedTo.country) ? TAX_ID_RULES[billedTo.country] : undefined;
    lines.push(`${rule?.name ?? 'Tax ID'} ${billedTo.tax_id}`);
  }
  return { name: billedTo.company_name, lines };
}
