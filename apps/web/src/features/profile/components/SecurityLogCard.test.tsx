import type { SecurityEvent } from '@portolan/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../lib/dates';
import { ada, json, mockApi, type RecordedCall } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { securityEventSentence } from './SecurityLogCard';

const EVENTS = 'GET /v1/user/security-events/';
const at = '2026-03-04T10:21:00.000Z';
const event = (n: number, fields: Partial<SecurityEvent>): SecurityEvent => ({
  id: `0e000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  kind: 'sign_in',
  method: null,
  factor: null,
  device: 'desktop',
  browser: 'Chrome 156',
  os: 'macOS Catalina',
  ip: '203.0.113.7',
  created_at: at,
  ...fields,
});
const pageOf = (results: SecurityEvent[], count = results.length) =>
  json({ count, next: null, previous: null, results });

function mockSecurityTab(events: ReturnType<typeof json> | ReturnType<typeof json>[]) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(ada),
    'GET /v1/user/mfa/': json({
      methods: [],
      totp: { enabled: false, confirmed_at: null },
      passkeys: 0,
      recovery_codes_remaining: 0,
      step_up_until: at,
    }),
    'GET /v1/user/sessions/': json({ count: 0, next: null, previous: null, results: [] }),
    [EVENTS]: events,
  });
}

const pageParam = (call: RecordedCall | undefined) =>
  new URL(call?.url ?? '/', 'http://localhost').searchParams.get('page');

describe('My Settings, Security: the security log', () => {
  it('lists the events newest first, each as a sentence with its device, address and time', async () => {
    const mock = mockSecurityTab([
      pageOf(
        [
          event(3, { kind: 'sign_in', method: 'password', factor: 'totp' }),
          event(2, {
            kind: 'mfa_failed',
            factor: 'recovery_code',
            device: 'mobile',
            browser: 'Safari 17',
            os: 'iOS 17.4',
            ip: null,
          }),
          event(1, { kind: 'totp_enabled', browser: null, os: null }),
        ],
        13,
      ),
      pageOf([event(4, { kind: 'password_changed' })], 13),
    ]);
    signIn();
    renderApp('/ps/profile?tab=security');
    const user = userEvent.setup();

    const list = await screen.findByRole('list', { name: 'Security events' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('p')?.textContent)).toEqual([
      'Signed in with password and authenticator app',
      'Wrong recovery code',
      'Turned on two-step verification (authenticator app)',
    ]);
    expect(rows[0]).toHaveTextContent(
      `Chrome 156 on macOS Catalina · 203.0.113.7 · ${formatDateTime(at)}`,
    );
    expect(rows[1]).toHaveTextContent('Safari 17 on iOS 17.4 · Unknown address');
    expect(rows[2]).toHaveTextContent('Unknown browser on an unknown system');
    expect(rows[0]!.querySelector('time')).toHaveAttribute('datetime', at);

    // 13 events, 10 a page: the second page.
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await within(list).findByText('Changed the password')).toBeVisible();
    expect(pageParam(mock.callsTo(EVENTS).at(-1))).toBe('2');
  });

  it('says when there is nothing in it yet', async () => {
    mockSecurityTab(pageOf([]));
    signIn();
    renderApp('/ps/profile?tab=security');

    const region = await screen.findByRole('region', { name: 'Security log' });
    expect(await within(region).findByText('Nothing in your security log yet')).toBeVisible();
    expect(within(region).queryByRole('list')).toBeNull();
  });

  it('says every kind of event in words', () => {
    expect(securityEventSentence({ kind: 'sign_in', method: 'google', factor: null })).toBe(
      'Signed in with Google',
    );
    expect(
      securityEventSentence({ kind: 'sign_in', method: 'google', factor: 'recovery_code' }),
    ).toBe('Signed in with Google and a recovery code');
    expect(securityEventSentence({ kind: 'step_up', method: 'password', factor: null })).toBe(
      'Confirmed it was you with password',
    );
    expect(securityEventSentence({ kind: 'step_up', method: null, factor: 'totp' })).toBe(
      'Confirmed it was you with authenticator app',
    );
    expect(securityEventSentence({ kind: 'mfa_failed', method: 'password', factor: null })).toBe(
      'Wrong password when confirming it was you',
    );
    expect(securityEventSentence({ kind: 'mfa_failed', method: 'password', factor: 'totp' })).toBe(
      'Wrong code from the authenticator app',
    );
    expect(securityEventSentence({ kind: 'sessions_revoked', method: null, factor: null })).toBe(
      'Signed out every other session',
    );
  });
});
