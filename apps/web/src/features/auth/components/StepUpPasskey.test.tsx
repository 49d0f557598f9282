import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../../lib/api';
import { PasskeyMessages } from '../../../lib/passkeys';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { signIn } from '../../../test/render-app';
import { renderGlobalUi, steppedUp, stepUpRequired } from '../../../test/step-up';
import {
  assertionJson,
  passkeyOptions,
  promptClosed,
  startAuthentication,
  withWebAuthn,
} from '../../../test/webauthn-mock';
import { STEP_UP_TITLE } from './StepUpDialog';

vi.mock('@simplewebauthn/browser', () => import('../../../test/webauthn-mock'));

const REMOVE = 'DELETE /v1/user/mfa/totp/';
const STEP_UP = 'POST /v1/user/step-up/';
const STEP_UP_OPTIONS = 'POST /v1/user/step-up/passkey-options/';

const removeTotp = () => api.delete<{ detail: string }>('/v1/user/mfa/totp/');

describe('step-up with a passkey', () => {
  it('offers "Use a passkey instead" after the password; the passkey steps up and the call goes on', async () => {
    withWebAuthn();
    const mock = mockApi({
      [REMOVE]: [
        stepUpRequired(['password', 'totp', 'passkey', 'recovery_code']),
        json({ detail: 'Off.' }),
      ],
      [STEP_UP_OPTIONS]: json(passkeyOptions()),
      [STEP_UP]: steppedUp,
    });
    startAuthentication.mockRejectedValueOnce(promptClosed());
    startAuthentication.mockResolvedValueOnce(assertionJson);
    signIn();
    renderGlobalUi();
    const user = userEvent.setup();

    const result = removeTotp();
    const dialog = await screen.findByRole('dialog', { name: STEP_UP_TITLE });
    await waitFor(() => expect(within(dialog).getByLabelText(/^Password/)).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Use a passkey instead' }));
    const use = within(dialog).getByRole('button', { name: 'Use a passkey' });
    expect(use).toHaveFocus();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Use your password instead' })).toBeVisible();

    // The prompt closed: a note, the dialog stays, nothing sent.
    await user.click(use);
    expect(await within(dialog).findByText(PasskeyMessages.cancelled)).toBeVisible();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(mock.callsTo(STEP_UP)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    await expect(result).resolves.toEqual({ detail: 'Off.' });
    expect(mock.callsTo(STEP_UP).map((c) => c.body)).toEqual([
      { passkey: { challenge_id: passkeyOptions().challenge_id, response: assertionJson } },
    ]);
    expect(startAuthentication).toHaveBeenLastCalledWith({
      optionsJSON: passkeyOptions().options,
    });
    expect(mock.callsTo(STEP_UP_OPTIONS)).toHaveLength(2);
    expect(mock.callsTo(REMOVE)).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: STEP_UP_TITLE })).toBeNull());
  });

  it('a passkey alone is asked for first; a refused one is said in the dialog', async () => {
    withWebAuthn();
    const refused = 'The passkey could not be verified. Try again, or use another way.';
    const mock = mockApi({
      [REMOVE]: stepUpRequired(['passkey', 'recovery_code']),
      [STEP_UP_OPTIONS]: json(passkeyOptions()),
      [STEP_UP]: apiError(400, 'INVALID_CODE', refused, [{ field: 'passkey', message: refused }]),
    });
    startAuthentication.mockResolvedValue(assertionJson);
    signIn();
    renderGlobalUi();
    const user = userEvent.setup();

    const result = removeTotp().catch((e: unknown) => e);
    const dialog = await screen.findByRole('dialog', { name: STEP_UP_TITLE });
    expect(dialog).toHaveTextContent('Use your passkey to go on');
    await user.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refused);
    expect(mock.callsTo(STEP_UP)).toHaveLength(1);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await result).toMatchObject({ code: 'STEP_UP_REQUIRED' });
  });
});
