import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../test/api-mock';
import { signIn } from '../test/render-app';
import { renderGlobalUi, steppedUp, stepUpRequired } from '../test/step-up';
import { ApiError, api } from './api';
import { useAuthStore } from './auth-store';
import { useStepUpStore } from './step-up';

const CHANGE = 'POST /v1/organizations/o1/grade-changes/checkout/';
const STEP_UP = 'POST /v1/user/step-up/';
const TITLE = 'Confirm it’s you';

const changePlan = () =>
  api.post<{ plan: string }>(
    '/v1/organizations/o1/grade-changes/checkout/',
    { plan: 'BUSINESS' },
    { headers: { 'Idempotency-Key': 'k-1' } },
  );

describe('step-up (403 STEP_UP_REQUIRED)', () => {
  it('asks for the password, steps up, then sends the call again and resolves with its answer', async () => {
    const mock = mockApi({
      [CHANGE]: [stepUpRequired(), json({ plan: 'BUSINESS' })],
      [STEP_UP]: steppedUp,
    });
    signIn();
    renderGlobalUi();
    const user = userEvent.setup();

    const result = changePlan();
    const dialog = await screen.findByRole('dialog', { name: TITLE });
    const password = within(dialog).getByLabelText(/^Password/);
    await waitFor(() => expect(password).toHaveFocus());
    // Nothing is sent before the user answers, and an empty answer is refused here.
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Enter your password.')).toBeVisible();
    expect(mock.callsTo(STEP_UP)).toHaveLength(0);

    await user.type(password, 'correct horse');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    await expect(result).resolves.toEqual({ plan: 'BUSINESS' });
    expect(mock.callsTo(STEP_UP).map((c) => c.body)).toEqual([{ password: 'correct horse' }]);
    const sent = mock.callsTo(CHANGE);
    expect(sent).toHaveLength(2);
    // The very same request again: body, and the Idempotency-Key of the user's one action.
    expect(sent[1]?.body).toEqual({ plan: 'BUSINESS' });
    expect(sent[1]?.headers.get('Idempotency-Key')).toBe('k-1');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull());
  });

  it('closed without an answer, the call rejects with the 403 it got, and nothing is sent again', async () => {
    const mock = mockApi({ [CHANGE]: stepUpRequired(), [STEP_UP]: steppedUp });
    signIn();
    renderGlobalUi();
    const user = userEvent.setup();

    const result = changePlan().catch((e: unknown) => e);
    const dialog = await screen.findByRole('dialog', { name: TITLE });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    const error = await result;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: 'STEP_UP_REQUIRED' });
    expect(mock.callsTo(CHANGE)).toHaveLength(1);
    expect(mock.callsTo(STEP_UP)).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull());
  });

  it('shares one dialog between calls refused together; a wrong password keeps it open', async () => {
    const mock = mockApi({
      [CHANGE]: [stepUpRequired(), json({ plan: 'BUSINESS' })],
      'DELETE /v1/organizations/o1/payment-methods/modification/': [
        stepUpRequired(),
        json({ detail: 'Removed.' }),
      ],
      [STEP_UP]: [
        apiError(400, 'WRONG_PASSWORD', 'Your password is not correct.', [
          { field: 'password', message: 'Your password is not correct.' },
        ]),
        steppedUp,
      ],
    });
    signIn();
    renderGlobalUi();
    const user = userEvent.setup();

    const first = changePlan();
    const second = api.delete('/v1/organizations/o1/payment-methods/modification/');
    const dialog = await screen.findByRole('dialog', { name: TITLE });
    await waitFor(() => expect(mock.callsTo(CHANGE)).toHaveLength(1));
    await waitFor(() =>
      expect(
        mock.callsTo('DELETE /v1/organizations/o1/payment-methods/modification/'),
      ).toHaveLength(1),
    );
    expect(screen.getAllByRole('dialog')).toHaveLength(1);

    await user.type(within(dialog).getByLabelText(/^Password/), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const field = within(dialog).getByLabelText(/^Password/);
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('This is not your password. Check it and try again.');

    // The code from the authenticator app instead.
    await user.click(
      within(dialog).getByRole('button', {
        name: 'Use a code from your authenticator app instead',
      }),
    );
    await user.click(within(dialog).getByRole('textbox', { name: /digit 1 of 6/ }));
    await user.keyboard('123456');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    await expect(first).resolves.toEqual({ plan: 'BUSINESS' });
    await expect(second).resolves.toEqual({ detail: 'Removed.' });
    expect(mock.callsTo(STEP_UP).map((c) => c.body)).toEqual([
      { password: 'wrong' },
      { code: '123456' },
    ]);
  });

  it.each([[[]], [['passkey']]])(
    'without a proof this browser can give (methods %j; jsdom has no WebAuthn), offers only to sign in again',
    async (methods: string[]) => {
      mockApi({ [CHANGE]: stepUpRequired(methods) });
      signIn();
      renderGlobalUi();
      const user = userEvent.setup();

      const result = changePlan().catch((e: unknown) => e);
      const dialog = await screen.findByRole('dialog', { name: TITLE });
      expect(within(dialog).queryByRole('textbox')).toBeNull();
      expect(dialog).toHaveTextContent('sign in again');
      await user.click(within(dialog).getByRole('button', { name: 'Sign in again' }));

      expect(await result).toMatchObject({ code: 'STEP_UP_REQUIRED' });
      expect(useAuthStore.getState().userToken).toBeNull();
      expect(window.location.pathname).toBe('/login');
    },
  );

  it('never opens the dialog for the step-up call itself, nor for a call that opts out', async () => {
    mockApi({ [STEP_UP]: stepUpRequired(), [CHANGE]: stepUpRequired() });
    signIn();
    await expect(
      api.post('/v1/user/step-up/', { password: 'x' }, { noStepUp: true }),
    ).rejects.toMatchObject({
      code: 'STEP_UP_REQUIRED',
    });
    await expect(
      api.post('/v1/organizations/o1/grade-changes/checkout/', {}, { noStepUp: true }),
    ).rejects.toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect(useStepUpStore.getState().methods).toBeNull();
  });
});
