import type { SellerSettings, SellerSettingsUpdate } from '@portolan/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * A workspace's branding, the seller settings of spec §3 and §7 ("seller settings fetch per
 * client"): its header logo and stylesheet. Read by every member while the workspace is current
 * (the header applies them); changed on the Branding page by its OWNERs and ADMINs.
 */

const enc = encodeURIComponent;
const path = (clientId: string) => `/v1/clients/${enc(clientId)}/seller-settings/`;

export const sellerSettingsKey = (clientId: string) =>
  ['clients', clientId, 'seller-settings'] as const;

/**
 * GET /v1/clients/{id}/seller-settings/. A background read for the header: no progress bar, and a
 * failure only leaves the workspace unbranded (the Branding page shows it with Retry).
 */
export function sellerSettingsQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: sellerSettingsKey(clientId),
    queryFn: ({ signal }) =>
      api.get<SellerSettings>(path(clientId), {
        signal,
        silent: true,
        noServerErrorToast: true,
        noNetworkErrorToast: true,
      }),
    staleTime: 5 * 60_000,
  });
}

/** PATCH /v1/clients/{id}/seller-settings/ {default_client_header_logo?, custom_css?}. */
export function patchSellerSettings(clientId: string, body: SellerSettingsUpdate) {
  return api.patch<SellerSettings>(path(clientId), body, {
    loadingMessage: 'Saving the branding…',
  });
}
