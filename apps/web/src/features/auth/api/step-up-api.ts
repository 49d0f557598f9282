import type { StepUpRequest, StepUpResponse } from '@portolan/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * POST /v1/user/step-up/ with exactly one of {password}, {code}, {recovery_code} → {detail,
 * step_up_until}: sensitive calls are allowed again until then. Never itself opens the step-up
 * dialog.
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
