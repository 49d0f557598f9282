import { z } from 'zod';
import { CUSTOM_CSS_MAX_BYTES, CssMessages, cssByteLength } from './branding.ts';
import { logoField } from './tenant-fields.ts';

/**
 * GET and PATCH /v1/clients/{clientId}/seller-settings/ (spec §3 "Seller settings", §7 "seller
 * settings fetch per client"). The stylesheet's own rules (no @import, url() only to uploads, …)
 * are checked by the server after this shape, with a message per rule (branding.ts).
 */

export const sellerSettingsSchema = z.object({
  /** The header logo: an upload's address (/uploads/<key>), or null for none. */
  default_client_header_logo: z.string().nullable(),
  /** The workspace's stylesheet, applied while it is current; '' for none. */
  custom_css: z.string(),
  /**
   * The stylesheet as applied: every selector under `[data-workspace-style]` (the app shell's
   * root: header, sidebar, page and footer; never modals, menus or toasts, which are portals).
   */
  scoped_css: z.string(),
});
export type SellerSettings = z.infer<typeof sellerSettingsSchema>;

/** A stylesheet as sent: kept exactly (line breaks and all), bounded in bytes. */
export const customCssField = z
  .string()
  .refine((css) => cssByteLength(css) <= CUSTOM_CSS_MAX_BYTES, {
    error: (issue) => CssMessages.tooLarge(cssByteLength(issue.input as string)),
    abort: true,
  });

/** Either or both; a field left out stays as it is. */
export const sellerSettingsUpdateSchema = z.strictObject({
  default_client_header_logo: logoField,
  custom_css: customCssField.optional(),
});
export type SellerSettingsUpdate = z.infer<typeof sellerSettingsUpdateSchema>;
