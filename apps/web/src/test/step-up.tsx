import { render } from '@testing-library/react';
import { AppProviders } from '../app/providers';
import { apiError, json } from './api-mock';

/** The server's 403 STEP_UP_REQUIRED, offering `methods` to prove presence. */
export const stepUpRequired = (methods: string[] = ['password', 'totp', 'recovery_code']) =>
  apiError(403, 'STEP_UP_REQUIRED', 'For your security, confirm it is you.', { methods });

/** POST /v1/user/step-up/ accepting the proof. */
export const steppedUp = json({ detail: 'Thank you.', step_up_until: '2099-01-01T00:00:00.000Z' });

/** The page-independent UI (where the step-up dialog lives) around nothing. */
export function renderGlobalUi() {
  return render(
    <AppProviders env="test">
      <div />
    </AppProviders>,
  );
}
