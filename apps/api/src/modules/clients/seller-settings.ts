import type { SellerSettings, SellerSettingsUpdate } from '@portolan/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { clients } from '../../db/schema/index.ts';
import { fieldError, notFound } from '../../lib/errors.ts';
import { lockTenant } from '../access/index.ts';
import { ActivityAction, recordActivity } from '../activities/index.ts';
import { isOwnUploadUrl } from '../uploads/index.ts';
import { checkCustomCss, cssProblemMessage, scopeCustomCss } from './css-policy.ts';
import type { ClientRow } from './repo.ts';
import type { onClient } from './service.ts';

/**
 * A workspace's branding, the seller settings of spec §3: its header logo and its stylesheet.
 * Every member reads them (the web app applies them while the workspace is current); its OWNERs
 * and ADMINs, and its organization's, change them.
 */

type ClientActor = ReturnType<typeof onClient>;

const toSellerSettings = (row: ClientRow): SellerSettings => ({
  default_client_header_logo: row.default_client_header_logo,
  custom_css: row.custom_css,
  scoped_css: scopeCustomCss(row.custom_css),
});

export function getSellerSettings(actor: ClientActor): SellerSettings {
  return toSellerSettings(actor.client);
}

/**
 * Changes what the body names (a field left out stays). Everything is checked before anything is
 * written: the stylesheet against css-policy.ts, a new logo as one of the caller's own uploads
 * (the logo already set may stay whoever uploaded it). The change and its activity are one
 * transaction; nothing changed writes nothing.
 */
export async function updateSellerSettings(
  ctx: AppContext,
  actor: ClientActor,
  patch: SellerSettingsUpdate,
): Promise<SellerSettings> {
  const current = actor.client;
  const changes: Partial<Pick<ClientRow, 'default_client_header_logo' | 'custom_css'>> = {};
  if (patch.default_client_header_logo !== undefined) {
    const logo = patch.default_client_header_logo || null;
    if (logo !== current.default_client_header_logo) changes.default_client_header_logo = logo;
  }
  if (patch.custom_css !== undefined && patch.custom_css !== current.custom_css) {
    changes.custom_css = patch.custom_css;
  }
  if (Object.keys(changes).length === 0) return toSellerSettings(current);

  if (changes.custom_css !== undefined) {
    const problems = checkCustomCss(changes.custom_css);
    if (problems.length > 0) throw fieldError('custom_css', cssProblemMessage(problems));
  }
  const logo = changes.default_client_header_logo;
  if (logo && !(await isOwnUploadUrl(ctx.db, actor.userId, logo))) {
    throw fieldError(
      'default_client_header_logo',
      'Upload the image first (POST /v1/upload/) and use the address it returns.',
    );
  }

  const updated = await ctx.db.transaction(async (tx) => {
    const tenant = { organizationId: current.organization_id, clientId: current.id };
    if (!(await lockTenant(tx, tenant))) return undefined;
    const [row] = await tx
      .update(clients)
      .set(changes)
      .where(and(eq(clients.id, current.id), isNull(clients.deleted_at)))
      .returning();
    if (!row) return undefined;
    await recordActivity(tx, {
      userId: actor.userId,
      action: ActivityAction.UPDATE_WORKSPACE,
      objectType: 'client',
      objectId: row.id,
      organizationId: row.organization_id,
      data: {
        app_profile: ctx.config.appProfile,
        client_id: row.id,
        client_name: row.name,
        // Which fields, not the stylesheet itself: the log is no place for 20 KB of CSS.
        changes: Object.keys(changes),
      },
      at: ctx.clock.now(),
    });
    return row;
  });
  if (!updated) throw notFound();
  return toSellerSettings(updated);
}
