import type { PasskeyOptionsResponse, StepUpRequest, StepUpResponse } from '@portolan/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * POST /v1/user/step-up/ with exactly one of {password}, {code}, {passkey}, {recovery_code}
 * → {detail, step_up_until}: sensitive calls are allowed again until then. Never itself opens the
 * step-up dialog.
 */
export function stepUp(body: StepUpRequest) {
  return api.post<StepUpResponse>('/v1/user/step-up/', body, {
    noStepUp: true,
    loadingMessage: 'Checking…',
  });
}

export function useStepUp() {
  return useMutation({ mutationFn: stepUp });
}

/** POST /v1/user/step-up/passkey-options/ → {challenge_id, options} naming the account's passkeys. */
export function stepUpPasskeyOptions() {
  return api.post<PasskeyOptionsResponse>('/v1/user/step-up/passkey-options/', undefined, {
    noStepUp: true,
    loadingMessage: 'Preparing the passkey request…',
  });
}
