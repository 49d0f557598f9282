import type { ComplianceMember, SecurityPolicy } from '@portolan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, type RecordedCall } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, ORG_ID, organization } from '../../../test/tenant-fixtures';
import { SecurityPolicyMessages } from '../components/SecurityPolicyForm';

const BASE = `/ps/organization-settings/${ORG_ID}`;
const POLICY = `/v1/organizations/${ORG_ID}/security-policy/`;
const COMPLIANCE = `${POLICY}compliance/`;

const off: SecurityPolicy = { require_mfa: 'off', grace_days: 7, since: null, enforced_from: null };
const anyFrom = (enforcedFrom: string): SecurityPolicy => ({
  require_mfa: 'any',
  grace_days: 0,
  since: enforcedFrom,
  enforced_from: enforcedFrom,
});

let made = 0;
function member(
  email: string,
  factors: ComplianceMember['factors'],
  compliant: boolean,
  role = 'STAFF',
): ComplianceMember {
  return {
    user_id: `00000000-0000-4000-8000-${String((made += 1)).padStart(12, '0')}`,
    email,
    first_name: email.split('@')[0]!,
    last_name: 'Member',
    role,
    factors,
    compliant,
  };
}

const sam = member('sam@example.com', [], false);
const ada = member('ada@example.com', ['totp', 'passkey'], true, 'OWNER');

function compliance(results: ComplianceMember[], count = results.length, nonCompliant = 1) {
  return json({ count, next: null, previous: null, results, non_compliant: nonCompliant });
}

const queryOf = (call: RecordedCall) => new URL(call.url, 'http://localhost').searchParams;

function mockSecurity(handlers: Parameters<typeof mockApi>[0]) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization('OWNER')),
    [`GET ${COMPLIANCE}`]: compliance([sam, ada]),
    ...handlers,
  });
}

const policyForm = () => screen.findByRole('form', { name: 'Security policy' });

describe('Organization settings, Security', () => {
  it('lets an OWNER require any second factor from its own tab, after a grace period', async () => {
    const saved = anyFrom('2099-03-01T10:00:00.000Z');
    const mock = mockSecurity({
      [`GET ${POLICY}`]: json(off),
      [`PUT ${POLICY}`]: json({ ...saved, grace_days: 14 }),
    });
    signIn();
    const { router } = renderApp(`${BASE}/detail`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Security' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/security`));

    const form = await policyForm();
    expect(within(form).getByRole('radio', { name: /^Off/ })).toBeChecked();
    expect(within(form).getByRole('textbox', { name: /Grace period/ })).toBeDisabled();
    expect(within(form).getByRole('button', { name: 'Save changes' })).toBeDisabled();
    expect(form).toHaveTextContent('Nobody is refused');

    await user.click(within(form).getByRole('radio', { name: /^Any second factor/ }));
    const grace = within(form).getByRole('textbox', { name: /Grace period/ });
    expect(grace).toBeEnabled();
    await user.clear(grace);
    await user.type(grace, '14');
    // What members will see, with the date they are refused from (14 days from now).
    expect(form).toHaveTextContent(/keep working as before until \d\d\/\d\d\/\d{4}/);
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText(SecurityPolicyMessages.saved)).toBeVisible();
    expect(mock.callsTo(`PUT ${POLICY}`).map((c) => c.body)).toEqual([
      { require_mfa: 'any', grace_days: 14 },
    ]);
    // The policy in force, with its date; who complies is read again under it.
    expect(await screen.findByText(/refused from 03\/01\/2099/)).toBeVisible();
    await waitFor(() => expect(mock.callsTo(`GET ${COMPLIANCE}`)).toHaveLength(2));
  });

  it('says when the OWNER must set up a second factor first (409), with the way there', async () => {
    const mock = mockSecurity({
      [`GET ${POLICY}`]: json(off),
      [`PUT ${POLICY}`]: apiError(
        409,
        'MFA_NOT_ENABLED',
        'Set up two-step verification for your own account first: the policy would refuse you too.',
      ),
    });
    signIn();
    renderApp(`${BASE}/security`);
    const user = userEvent.setup();

    const form = await policyForm();
    await user.click(within(form).getByRole('radio', { name: /^Passkeys only/ }));
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));

    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Your own account does not meet this policy yet');
    expect(alert).toHaveTextContent('the policy would refuse you too.');
    expect(
      within(alert).getByRole('link', { name: 'Set it up under My Settings → Security' }),
    ).toHaveAttribute('href', '/ps/profile?tab=security');
    expect(mock.callsTo(`PUT ${POLICY}`)).toHaveLength(1);
    expect(within(form).getByRole('radio', { name: /^Passkeys only/ })).toBeChecked();
  });

  it('puts the server’s field errors on their fields (400)', async () => {
    mockSecurity({
      [`GET ${POLICY}`]: json(anyFrom('2026-03-01T10:00:00.000Z')),
      [`PUT ${POLICY}`]: apiError(400, 'VALIDATION_ERROR', 'Check the fields.', [
        { field: 'body.grace_days', message: 'Enter 90 days or fewer.' },
      ]),
    });
    signIn();
    renderApp(`${BASE}/security`);
    const user = userEvent.setup();

    const form = await policyForm();
    expect(form).toHaveTextContent('cannot open Demo Shipping Co.');
    const grace = within(form).getByRole('textbox', { name: /Grace period/ });
    await user.type(grace, '5');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Enter 90 days or fewer.')).toBeVisible();
    expect(grace).toHaveAttribute('aria-invalid', 'true');
  });

  it('lists the members’ factors, those not compliant alone on request, page by page', async () => {
    const many = Array.from({ length: 20 }, (_, i) => member(`m${i}@example.com`, [], false));
    const mock = mockSecurity({
      [`GET ${POLICY}`]: json(anyFrom('2026-03-01T10:00:00.000Z')),
      [`GET ${COMPLIANCE}`]: (call) => {
        const query = queryOf(call);
        if (query.get('compliant') === 'false') return compliance([], 0, 0);
        return query.get('page') === '2' ? compliance([ada], 21, 20) : compliance(many, 21, 20);
      },
    });
    signIn();
    renderApp(`${BASE}/security`);
    const user = userEvent.setup();

    const section = await screen.findByRole('region', { name: 'Members’ second factors' });
    const table = await within(section).findByRole('table');
    expect(section).toHaveTextContent('20 members do not meet the policy yet.');
    expect(within(table).getAllByText('Not compliant')).toHaveLength(20);
    // Each row says its factors twice: in their column, and under the name for a phone.
    expect(within(table).getAllByText('None')).toHaveLength(40);

    await user.click(within(section).getByRole('button', { name: 'Page 2' }));
    const row = (await within(section).findByText('ada@example.com')).closest('tr')!;
    expect(within(row).getAllByText('Authenticator app')).toHaveLength(2);
    expect(within(row).getAllByText('Passkey')).toHaveLength(2);
    expect(within(row).getByText('Meets the policy')).toBeVisible();
    expect(queryOf(mock.callsTo(`GET ${COMPLIANCE}`).at(-1)!).get('page')).toBe('2');

    await user.click(within(section).getByRole('switch', { name: 'Not compliant only' }));
    expect(await within(section).findByText('Every member meets the policy')).toBeVisible();
    const last = queryOf(mock.callsTo(`GET ${COMPLIANCE}`).at(-1)!);
    expect([last.get('compliant'), last.get('page')]).toEqual(['false', '1']);
  });

  it.each(['ADMIN', 'STAFF'] as const)('shows an %s no tab and no policy', async (role) => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/organizations/${ORG_ID}/`]: json(organization(role)),
    });
    signIn();
    renderApp(`${BASE}/security`);
    expect(await screen.findByText('Only owners manage the security policy')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Security' })).toBeNull();
    expect(mock.callsTo(`GET ${POLICY}`)).toHaveLength(0);
    expect(mock.callsTo(`GET ${COMPLIANCE}`)).toHaveLength(0);
  });
});
