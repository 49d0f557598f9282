import type { MfaStatusResponse } from '@portolan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { pressAndConfirm } from '../../../test/dialogs';
import { renderApp, signIn } from '../../../test/render-app';
import { RECOVERY_CODES_FILE } from './RecoveryCodes';
import { TwoStepMessages } from './TwoStepCard';

const STATUS = 'GET /v1/user/mfa/';
const off: MfaStatusResponse = {
  methods: [],
  totp: { enabled: false, confirmed_at: null },
  passkeys: 0,
  recovery_codes_remaining: 0,
  step_up_until: '2099-01-01T00:00:00.000Z',
};
const on = (left = 10): MfaStatusResponse => ({
  methods: ['totp', 'recovery_code'],
  totp: { enabled: true, confirmed_at: '2026-03-04T10:00:00.000Z' },
  passkeys: 0,
  recovery_codes_remaining: left,
  step_up_until: '2099-01-01T00:00:00.000Z',
});
const codes = (prefix: string) =>
  Array.from({ length: 10 }, (_, i) => `${prefix}${String(i).padStart(3, '0')}-x9c4t`);
const setup = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauth_url:
    'otpauth://totp/Portolan:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Portolan&algorithm=SHA1&digits=6&period=30',
};
const noEvents = json({ count: 0, next: null, previous: null, results: [] });

function mockSecurityTab(handlers: Parameters<typeof mockApi>[0]) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(ada),
    'GET /v1/user/sessions/': json({ count: 0, next: null, previous: null, results: [] }),
    'GET /v1/user/security-events/': noEvents,
    ...handlers,
  });
}

const card = () => screen.findByRole('region', { name: /^Two-step verification/ });

describe('My Settings, Security: two-step verification', () => {
  const saved: { name: string; blob: Blob }[] = [];
  beforeEach(() => {
    Object.assign(URL, { createObjectURL: () => 'blob:codes', revokeObjectURL: () => {} });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, blob: new Blob() });
    });
  });
  afterEach(() => {
    saved.length = 0;
  });

  it('sets up the authenticator app: QR code and key, a code, then the recovery codes once', async () => {
    const mock = mockSecurityTab({
      [STATUS]: [json(off), json(on())],
      'POST /v1/user/mfa/totp/': json(setup),
      'POST /v1/user/mfa/totp/confirm/': [
        apiError(400, 'INVALID_CODE', 'That code is not right.', [
          { field: 'code', message: 'That code is not right, or it was used already.' },
        ]),
        json({ recovery_codes: codes('k7p2m') }),
      ],
    });
    signIn();
    renderApp('/ps/profile?tab=security');
    const user = userEvent.setup();

    const region = await card();
    expect(await within(region).findByText('Off')).toBeVisible();
    await user.click(within(region).getByRole('button', { name: 'Set up authenticator app' }));

    const qr = await within(region).findByRole('img', {
      name: 'QR code to scan with your authenticator app',
    });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(within(region).getByTestId('totp-secret')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    expect(within(region).getByRole('button', { name: 'Copy key' })).toBeVisible();

    await user.click(within(region).getByRole('textbox', { name: /digit 1 of 6/ }));
    await user.keyboard('000000');
    await user.click(within(region).getByRole('button', { name: 'Turn on' }));
    expect(
      await within(region).findByText('That code is not right, or it was used already.'),
    ).toBeVisible();

    await user.click(within(region).getByRole('textbox', { name: /digit 1 of 6/ }));
    await user.keyboard('123456');
    await user.click(within(region).getByRole('button', { name: 'Turn on' }));

    const list = await within(region).findByRole('list', { name: 'Your recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes('k7p2m'));
    expect(await screen.findByText(TwoStepMessages.turnedOn)).toBeVisible();
    expect(mock.callsTo('POST /v1/user/mfa/totp/confirm/').map((c) => c.body)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
    expect(within(region).getByRole('button', { name: 'Copy' })).toBeVisible();
    await user.click(within(region).getByRole('button', { name: 'Download' }));
    expect(saved.map((f) => f.name)).toEqual([RECOVERY_CODES_FILE]);

    await user.click(within(region).getByRole('button', { name: 'I have saved them' }));
    expect(within(region).queryByRole('list', { name: 'Your recovery codes' })).toBeNull();
    expect(await within(region).findByText('On')).toBeVisible();
    expect(region).toHaveTextContent('Recovery codes left: 10 of 10.');
  });

  it('asks to confirm it is you before the setup, then goes on (step-up)', async () => {
    const mock = mockSecurityTab({
      [STATUS]: json(off),
      'POST /v1/user/mfa/totp/': [
        apiError(403, 'STEP_UP_REQUIRED', 'Confirm it is you.', { methods: ['password'] }),
        json(setup),
      ],
      'POST /v1/user/step-up/': json({ detail: 'Thank you.', step_up_until: off.step_up_until }),
    });
    signIn();
    renderApp('/ps/profile?tab=security');
    const user = userEvent.setup();

    const region = await card();
    await user.click(
      await within(region).findByRole('button', { name: 'Set up authenticator app' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.type(within(dialog).getByLabelText(/^Password/), 'correct horse');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(
      await within(region).findByRole('img', {
        name: 'QR code to scan with your authenticator app',
      }),
    ).toBeVisible();
    expect(mock.callsTo('POST /v1/user/mfa/totp/')).toHaveLength(2);
  });

  it('makes new recovery codes after asking, and shows them once', async () => {
    const mock = mockSecurityTab({
      [STATUS]: [json(on(2)), json(on(10))],
      'POST /v1/user/mfa/recovery-codes/': json({ recovery_codes: codes('n3w00') }),
    });
    signIn();
    renderApp('/ps/profile?tab=security');
    const user = userEvent.setup();

    const region = await card();
    expect(await within(region).findByText(/few recovery codes left/)).toBeVisible();
    expect(region).toHaveTextContent('Recovery codes left: 2 of 10.');
    await user.click(within(region).getByRole('button', { name: 'New recovery codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make new recovery codes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Make new codes' }));

    const list = await within(region).findByRole('list', { name: 'Your recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(list).toHaveTextContent('n3w00000-x9c4t');
    expect(mock.callsTo('POST /v1/user/mfa/recovery-codes/')).toHaveLength(1);
    await user.click(within(region).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(region).toHaveTextContent('Recovery codes left: 10 of 10.'));
  });

  it('removes the authenticator app after asking', async () => {
    const mock = mockSecurityTab({
      [STATUS]: [json(on()), json(off)],
      'DELETE /v1/user/mfa/totp/': json({ detail: 'Two-step verification is off.' }),
    });
    signIn();
    renderApp('/ps/profile?tab=security');
    const user = userEvent.setup();

    const region = await card();
    await within(region).findByText('On');
    await pressAndConfirm(user, 'Remove');

    expect(await screen.findByText(TwoStepMessages.turnedOff)).toBeVisible();
    expect(mock.callsTo('DELETE /v1/user/mfa/totp/')).toHaveLength(1);
    expect(
      await within(region).findByRole('button', { name: 'Set up authenticator app' }),
    ).toBeVisible();
  });

  it('is a tab of My Settings: Security opens it, Profile goes back to the details', async () => {
    mockSecurityTab({ [STATUS]: json(off) });
    signIn();
    const app = renderApp('/ps/profile');
    const user = userEvent.setup();

    const tabs = await screen.findByRole('tablist', { name: 'Settings sections' });
    expect(within(tabs).getByRole('tab', { name: 'Profile' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByRole('textbox', { name: 'First name' })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Where you’re signed in' })).toBeNull();

    await user.click(within(tabs).getByRole('tab', { name: 'Security' }));
    await waitFor(() => expect(app.location()).toBe('/ps/profile?tab=security'));
    expect(await card()).toBeVisible();
    expect(screen.getByRole('region', { name: 'Where you’re signed in' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'Security log' })).toBeVisible();

    await user.click(within(tabs).getByRole('tab', { name: 'Profile' }));
    await waitFor(() => expect(app.location()).toBe('/ps/profile'));
    expect(await screen.findByRole('textbox', { name: 'First name' })).toBeVisible();
  });
});
