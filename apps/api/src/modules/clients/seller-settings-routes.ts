import {
  CUSTOM_CSS_MAX_BYTES,
  errorBodySchema,
  sellerSettingsSchema,
  sellerSettingsUpdateSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { getSellerSettings, updateSellerSettings } from './seller-settings.ts';
import { onClient } from './service.ts';

const tags = ['clients'];
const security = [{ bearerAuth: [] }];
const params = z.strictObject({ id: z.uuid() });
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/**
 * The seller settings of a workspace (spec §3, §7 "seller settings fetch per client"): its header
 * logo and its stylesheet (issue 11, workspace branding).
 */
export async function sellerSettingsRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/clients/:id/seller-settings/', {
    config: { access: { client: 'id', permission: 'client.read' } },
    schema: {
      tags,
      summary:
        'A workspace’s branding: its header logo and stylesheet, which the web app applies while the workspace is current (any member)',
      security,
      params,
      response: { 200: sellerSettingsSchema, ...errors },
    },
    handler: async (request) => getSellerSettings(onClient(requireActor(request))),
  });

  app.patch('/v1/clients/:id/seller-settings/', {
    // The workspace settings' permission: its OWNER and ADMIN, and its organization's.
    config: { access: { client: 'id', permission: 'client.update' } },
    schema: {
      tags,
      summary: `Change a workspace’s header logo (an upload’s address, or null) or stylesheet (at most ${CUSTOM_CSS_MAX_BYTES / 1024} KB; no @import, no expression(), url() only to this portal’s uploads); a refused stylesheet is a 400 on custom_css saying what and on which line`,
      security,
      params,
      body: sellerSettingsUpdateSchema,
      response: { 200: sellerSettingsSchema, ...errors },
    },
    handler: async (request) =>
      updateSellerSettings(ctx, onClient(requireActor(request)), request.body),
  });
}
