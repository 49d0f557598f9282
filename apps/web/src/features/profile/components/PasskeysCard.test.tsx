import type { MfaStatusResponse, Passkey } from '@portolan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PasskeyMessages } from '../../../lib/passkeys';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import {
  passkeyOptions,
  promptClosed,
  registrationJson,
  startRegistration,
  withWebAuthn,
} from '../../../test/webauthn-mock';
import { PasskeysMessages } from './PasskeysCard';

vi.mock('@simplewebauthn/browser', () => import('../../../test/webauthn-mock'));

const LIST = 'GET /v1/user/mfa/passkeys/';
const STATUS = 'GET /v1/user/mfa/';
const OPTIONS = 'POST /v1/user/mfa/passkeys/options/';
const ADD = 'POST /v1/user/mfa/passkeys/';
const EVENTS = 'GET /v1/user/security-events/';
const noPage = json({ count: 0, next: null, previous: null, results: [] });

const status = (passkeys: number): MfaStatusResponse => ({
  methods: passkeys > 0 ? ['passkey', 'recovery_code'] : [],
  totp: { enabled: false, confirmed_at: null },
  passkeys,
  recovery_codes_remaining: passkeys > 0 ? 10 : 0,
  step_up_until: '2099-01-01T00:00:00.000Z',
});
const laptop: Passkey = {
  id: '3c1b9a6e-2f4d-4e8a-9b7c-5d6e7f8a9b0c',
  name: 'Work laptop',
  created_at: '2026-03-04T10:00:00.000Z',
  last_used_at: '2026-03-09T08:30:00.000Z',
  backed_up: true,
};
const key: Passkey = {
  id: '7a2c4e6f-8b0d-4f1a-a3c5-e7f9a1b3c5d7',
  name: 'Passkey on Chrome on Linux',
  created_at: '2026-03-10T12:00:00.000Z',
  last_used_at: null,
  backed_up: false,
};
const codes = Array.from({ length: 10 }, (_, i) => `p4ss${i}-k3y0${i}`);

function mockSecurityTab(handlers: Parameters<typeof mockApi>[0]) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(ada),
    'GET /v1/user/sessions/': noPage,
    [EVENTS]: noPage,
    ...handlers,
  });
}

async function openCard() {
  signIn();
  renderApp('/ps/profile?tab=security');
  return screen.findByRole('region', { name: 'Passkeys' });
}

describe('My Settings, Security: passkeys', () => {
  it('lists the passkeys: name, added, last used, Synced; a skeleton while they load', async () => {
    withWebAuthn();
    let answer: (res: Response) => void = () => {};
    mockSecurityTab({
      [STATUS]: json(status(2)),
      [LIST]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const card = await openCard();
    expect(within(card).getByLabelText('Loading your passkeys')).toHaveAttribute(
      'aria-busy',
      'true',
    );
    answer(json({ results: [laptop, key] }));

    const list = await within(card).findByRole('list', { name: 'Your passkeys' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Work laptop');
    expect(first).toHaveTextContent('Added 03/04/2026 · last used 03/09/2026');
    expect(within(first!).getByText('Synced')).toBeVisible();
    expect(second).toHaveTextContent('Added 03/10/2026 · not used yet');
    expect(within(second!).queryByText('Synced')).toBeNull();
    expect(within(card).getByRole('button', { name: 'Remove Work laptop' })).toBeVisible();
    expect(within(card).getByRole('textbox', { name: /^Name \(optional\)/ })).toBeVisible();
  });

  it('adds a first passkey with a name, shows the recovery codes once, then lists it', async () => {
    withWebAuthn();
    const mock = mockSecurityTab({
      [STATUS]: [json(status(0)), json(status(1))],
      [LIST]: [json({ results: [] }), json({ results: [laptop] })],
      [OPTIONS]: json(passkeyOptions()),
      [ADD]: json({ passkey: laptop, recovery_codes: codes }, 201),
    });
    startRegistration.mockResolvedValueOnce(registrationJson);
    const card = await openCard();
    const user = userEvent.setup();

    expect(await within(card).findByText('No passkeys yet')).toBeVisible();
    await user.type(within(card).getByRole('textbox', { name: /^Name/ }), '  Work laptop ');
    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));

    const list = await within(card).findByRole('list', { name: 'Your recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes);
    expect(await screen.findByText(PasskeysMessages.added)).toBeVisible();
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: passkeyOptions().options });
    expect(mock.callsTo(ADD).map((c) => c.body)).toEqual([
      {
        challenge_id: passkeyOptions().challenge_id,
        response: registrationJson,
        name: 'Work laptop',
      },
    ]);
    // The factors and the log are read again: the two-step card says On.
    const twoStep = screen.getByRole('region', { name: /^Two-step verification/ });
    expect(await within(twoStep).findByText('On')).toBeVisible();
    await waitFor(() => expect(mock.callsTo(EVENTS).length).toBeGreaterThan(1));

    await user.click(within(card).getByRole('button', { name: 'I have saved them' }));
    const passkeys = await within(card).findByRole('list', { name: 'Your passkeys' });
    expect(passkeys).toHaveTextContent('Work laptop');
  });

  it('a closed prompt is a quiet note; a second passkey comes without codes', async () => {
    withWebAuthn();
    const mock = mockSecurityTab({
      [STATUS]: json(status(1)),
      [LIST]: [json({ results: [laptop] }), json({ results: [laptop, key] })],
      [OPTIONS]: json(passkeyOptions()),
      [ADD]: json({ passkey: key, recovery_codes: null }, 201),
    });
    startRegistration.mockRejectedValueOnce(promptClosed());
    startRegistration.mockResolvedValueOnce(registrationJson);
    const card = await openCard();
    const user = userEvent.setup();

    await user.click(await within(card).findByRole('button', { name: 'Add a passkey' }));
    const note = await within(card).findByText(PasskeyMessages.cancelled);
    expect(note.closest('[role="status"]')).not.toBeNull();
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(mock.callsTo(ADD)).toHaveLength(0);

    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() =>
      expect(
        within(card)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([
        expect.stringContaining('Work laptop'),
        expect.stringContaining('Passkey on Chrome on Linux'),
      ]),
    );
    // No name given: none sent (the server names it after the device).
    expect(mock.callsTo(ADD)[0]?.body).toEqual({
      challenge_id: passkeyOptions().challenge_id,
      response: registrationJson,
    });
    expect(within(card).queryByRole('list', { name: 'Your recovery codes' })).toBeNull();
    expect(within(card).queryByText(PasskeyMessages.cancelled)).toBeNull();
  });

  it('says why a passkey was not added: the server’s refusal above the form', async () => {
    withWebAuthn();
    mockSecurityTab({
      [STATUS]: json(status(1)),
      [LIST]: json({ results: [laptop] }),
      [OPTIONS]: json(passkeyOptions()),
      [ADD]: apiError(409, 'PASSKEY_LIMIT', 'This passkey is already registered.'),
    });
    startRegistration.mockResolvedValueOnce(registrationJson);
    const card = await openCard();
    const user = userEvent.setup();

    await user.click(await within(card).findByRole('button', { name: 'Add a passkey' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'This passkey is already registered.',
    );
  });

  it('removes a passkey after asking; the last one says the recovery codes go too', async () => {
    withWebAuthn();
    const mock = mockSecurityTab({
      [STATUS]: [json(status(1)), json(status(0))],
      [LIST]: [json({ results: [laptop] }), json({ results: [] })],
      [`DELETE /v1/user/mfa/passkeys/${laptop.id}/`]: json({ detail: 'Removed.' }),
    });
    const card = await openCard();
    const user = userEvent.setup();

    await within(card).findByRole('list', { name: 'Your passkeys' });
    await user.click(within(card).getByRole('button', { name: 'Remove Work laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    expect(dialog).toHaveTextContent('your recovery codes stop working');
    await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));

    expect(await screen.findByText(PasskeysMessages.removed)).toBeVisible();
    expect(await within(card).findByText('No passkeys yet')).toBeVisible();
    expect(mock.callsTo(`DELETE /v1/user/mfa/passkeys/${laptop.id}/`)).toHaveLength(1);
  });

  it('a browser without WebAuthn lists the passkeys and says where to add one', async () => {
    const mock = mockSecurityTab({
      [STATUS]: json(status(1)),
      [LIST]: json({ results: [laptop] }),
    });
    const card = await openCard();

    expect(await within(card).findByRole('list', { name: 'Your passkeys' })).toBeVisible();
    expect(within(card).getByText(PasskeysMessages.unsupported)).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Add a passkey' })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Remove Work laptop' })).toBeVisible();
    expect(mock.callsTo(OPTIONS)).toHaveLength(0);
  });

  it('at the most passkeys an account can have, says so instead of offering another', async () => {
    withWebAuthn();
    const ten = Array.from({ length: 10 }, (_, i) => ({ ...key, id: `${i}${key.id.slice(1)}` }));
    mockSecurityTab({ [STATUS]: json(status(10)), [LIST]: json({ results: ten }) });
    const card = await openCard();
    expect(await within(card).findByText(PasskeysMessages.atLimit)).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });
});
