import type { ModuleCode, ModuleLaunch } from '@portolan/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * POST /v1/clients/{clientId}/modules/{module}/launch/: a token (minutes long) that opens the
 * module's own app as the user, and that app's URL. Kept nowhere once used.
 */
export function useLaunchModule(clientId: string, module: ModuleCode) {
  return useMutation({
    mutationFn: () =>
      api.post<ModuleLaunch>(
        `/v1/clients/${encodeURIComponent(clientId)}/modules/${module}/launch/`,
        undefined,
        // The page says what went wrong and what to do; no toast on top.
        { noServerErrorToast: true },
      ),
    gcTime: 0,
  });
}
