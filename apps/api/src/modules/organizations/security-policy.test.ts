// engine-parity: issue 20 asks every account-security item of both engines (codes, locks, policy)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complianceListResponseSchema, ErrorCode, securityPolicySchema } from '@portolan/contract';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import { startAnotherInstance } from '../../../test/support/another-instance.ts';
import {
  enrolTotp,
  passwordStep,
  secondStep,
  type Authenticator,
} from '../../../test/support/mfa.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { SoftAuthenticator } from '../../../test/support/webauthn.ts';
import { createClient, FACTORY_PASSWORD } from '../../seed/factories.ts';

const DAY = 24 * 60 * 60_000;

/**
 * Issue 20 item 5: an organization's OWNER requires a second factor of every member. Past the
 * grace, a member without one gets 403 MFA_REQUIRED on every route of the organization and its
 * workspaces, and keeps their own account's routes; the OWNER sees who is not yet compliant.
 */
describe('the organization’s security policy', () => {
  let t: TestApp;
  let s: TenantScene;
  let workspaceId: string;
  let ownerApp: Authenticator;
  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    workspaceId = (
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: s.people.OWNER.id })
    ).id;
    ownerApp = (await enrolTotp(t, s.people.OWNER.token)).authenticator;
  });
  afterAll(() => t.close());

  const policyUrl = () => `/v1/organizations/${s.orgId}/security-policy/`;
  const put = (who: Person | 'anonymous', body: object) => s.send('PUT', policyUrl(), who, body);
  /** A fresh session (a sign-in is a proof of presence; the scene's are hours old after jumps). */
  async function fresh(person: Person): Promise<Person> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email: person.email, password: FACTORY_PASSWORD },
      remoteAddress: `10.66.0.${Math.floor(Math.random() * 250) + 1}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().token, 'this person has no second factor').toBeDefined();
    return { ...person, token: res.json().token };
  }

  it('is read and changed by OWNERs only (401, 404, 403 for the others)', async () => {
    for (const url of [policyUrl(), `${policyUrl()}compliance/`]) {
      expect((await s.send('GET', url, 'anonymous')).statusCode, url).toBe(401);
      expect((await s.send('GET', url, s.people.STRANGER)).statusCode, url).toBe(404);
      for (const role of ['ADMIN', 'STAFF', 'CLIENT'] as const) {
        const res = await s.send('GET', url, s.people[role]);
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
      }
      expect((await s.send('GET', url, s.people.OWNER)).statusCode, url).toBe(200);
    }
    expect(
      securityPolicySchema.parse((await s.send('GET', policyUrl(), s.people.OWNER)).json()),
    ).toEqual({
      require_mfa: 'off',
      grace_days: 7,
      since: null,
      enforced_from: null,
    });
    const body = { require_mfa: 'any', grace_days: 0 };
    expect((await put('anonymous', body)).statusCode).toBe(401);
    expect((await put(s.people.STRANGER, body)).statusCode).toBe(404);
    expect((await put(s.people.ADMIN, body)).statusCode).toBe(403);
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    for (const [body, field] of [
      [{ require_mfa: 'sometimes', grace_days: 1 }, 'require_mfa'],
      [{ require_mfa: 'any', grace_days: 91 }, 'grace_days'],
      [{ require_mfa: 'any', grace_days: -1 }, 'grace_days'],
      [{ require_mfa: 'any', grace_days: 1.5 }, 'grace_days'],
      [{ require_mfa: 'any' }, 'grace_days'],
      [{ require_mfa: 'any', grace_days: 1, extra: true }, 'extra'],
    ] as const) {
      const res = await put(s.people.OWNER, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await s.send('GET', policyUrl(), s.people.OWNER)).json().require_mfa).toBe('off');
  });

  it('needs the OWNER to meet it first, and a fresh proof of presence', async () => {
    const owner2 = await s.member('OWNER');
    const refused = await put(owner2, { require_mfa: 'any', grace_days: 3 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe(ErrorCode.MFA_NOT_ENABLED);
    // Phishing-resistant needs a passkey, which the TOTP of the first OWNER is not.
    const passkey = await put(s.people.OWNER, { require_mfa: 'phishing_resistant', grace_days: 3 });
    expect(passkey.json().code).toBe(ErrorCode.MFA_NOT_ENABLED);
    t.clock.advance(11 * 60_000);
    const stale = await put(s.people.OWNER, { require_mfa: 'any', grace_days: 3 });
    expect(stale.json().code).toBe(ErrorCode.STEP_UP_REQUIRED);
    await s.send('DELETE', `/v1/organizations/${s.orgId}/users/${owner2.id}/`, s.people.OWNER);
  });

  /** The OWNER signs in again, with the second factor. */
  async function freshOwner() {
    t.clock.advance(30_000);
    const challenge = await passwordStep(t, s.people.OWNER.email, FACTORY_PASSWORD);
    const done = await secondStep(t, challenge.json().mfa_token, { code: ownerApp.code() });
    expect(done.statusCode, done.body).toBe(200);
    s.people.OWNER = { ...s.people.OWNER, token: done.json().token };
  }

  it('lets members in during the grace, refuses them after it on every route of the organization, never on their own account', async () => {
    await freshOwner();
    const set = await put(s.people.OWNER, { require_mfa: 'any', grace_days: 2 });
    expect(set.statusCode).toBe(200);
    const policy = securityPolicySchema.parse(set.json());
    expect(policy.require_mfa).toBe('any');
    expect(new Date(policy.enforced_from!).getTime() - new Date(policy.since!).getTime()).toBe(
      2 * DAY,
    );

    // The activity log records the change.
    const log = await s.send('GET', `/v1/organizations/${s.orgId}/activities/`, s.people.OWNER);
    expect(log.json().results[0]).toMatchObject({ action: 'UPDATE_SECURITY_POLICY' });

    const orgUrl = `/v1/organizations/${s.orgId}/`;
    const workspaceUrl = `/v1/clients/${workspaceId}/`;
    expect((await s.send('GET', orgUrl, s.people.STAFF)).statusCode).toBe(200);

    t.clock.advance(2 * DAY + 1000);
    for (const role of ['ADMIN', 'STAFF', 'STRANGER'] as const) {
      s.people[role] = await fresh(s.people[role]);
    }
    await freshOwner();
    for (const [who, url] of [
      [s.people.STAFF, orgUrl],
      [s.people.ADMIN, orgUrl],
      [s.people.ADMIN, workspaceUrl],
      [s.people.ADMIN, `/v1/organizations/${s.orgId}/users/`],
    ] as const) {
      const res = await s.send('GET', url, who);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({
        code: ErrorCode.MFA_REQUIRED,
        details: { organization_id: s.orgId, require_mfa: 'any' },
      });
    }
    // Their own account's routes, and their other organizations, still answer.
    for (const url of ['/v1/rest-auth/user/', '/v1/user/mfa/', '/v1/organizations/']) {
      expect((await s.send('GET', url, s.people.STAFF)).statusCode, url).toBe(200);
    }
    // A stranger's organization has no such policy.
    expect(
      (await s.send('GET', `/v1/organizations/${s.otherOrgId}/`, s.people.STRANGER)).statusCode,
    ).toBe(200);

    // STAFF sets up TOTP and gets in.
    await enrolTotp(t, s.people.STAFF.token);
    expect((await s.send('GET', orgUrl, s.people.STAFF)).statusCode).toBe(200);
  });

  it('lists the members with their factors, those not compliant first', async () => {
    const res = await s.send('GET', `${policyUrl()}compliance/`, s.people.OWNER);
    expect(res.statusCode).toBe(200);
    const page = complianceListResponseSchema.parse(res.json());
    const byEmail = Object.fromEntries(page.results.map((m) => [m.email, m]));
    expect(byEmail[s.people.OWNER.email]).toMatchObject({
      factors: ['totp'],
      compliant: true,
      role: 'OWNER',
    });
    expect(byEmail[s.people.STAFF.email]).toMatchObject({ factors: ['totp'], compliant: true });
    expect(byEmail[s.people.ADMIN.email]).toMatchObject({ factors: [], compliant: false });
    expect(byEmail[s.people.STRANGER.email]).toBeUndefined();
    expect(page.non_compliant).toBe(2);
    expect(page.results.slice(0, 2).every((m) => !m.compliant)).toBe(true);
    const only = complianceListResponseSchema.parse(
      (
        await s.send('GET', `${policyUrl()}compliance/?compliant=false&limit=1`, s.people.OWNER)
      ).json(),
    );
    expect(only).toMatchObject({ count: 2, next: 2, non_compliant: 2 });
    expect(only.results[0]!.compliant).toBe(false);
    for (const query of ['?compliant=maybe', '?limit=0', '?page=-1', '?other=1']) {
      expect(
        (await s.send('GET', `${policyUrl()}compliance/${query}`, s.people.OWNER)).statusCode,
        query,
      ).toBe(400);
    }
  });

  it('asks for a passkey when phishing-resistant: TOTP no longer meets it', async () => {
    await freshOwner();
    const device = new SoftAuthenticator(t.ctx.config.publicUrl);
    const options = (await s.send('POST', '/v1/user/mfa/passkeys/options/', s.people.OWNER)).json();
    const added = await s.send('POST', '/v1/user/mfa/passkeys/', s.people.OWNER, {
      challenge_id: options.challenge_id,
      response: device.register(options.options),
    });
    expect(added.statusCode, added.body).toBe(201);
    const set = await put(s.people.OWNER, { require_mfa: 'phishing_resistant', grace_days: 0 });
    expect(set.statusCode, set.body).toBe(200);
    const staff = await s.send('GET', `/v1/organizations/${s.orgId}/`, s.people.STAFF);
    expect(staff.json()).toMatchObject({
      code: ErrorCode.MFA_REQUIRED,
      details: { require_mfa: 'phishing_resistant' },
    });
    expect(staff.json().message).toContain('a passkey');
    const page = complianceListResponseSchema.parse(
      (await s.send('GET', `${policyUrl()}compliance/`, s.people.OWNER)).json(),
    );
    const owner = page.results.find((m) => m.email === s.people.OWNER.email);
    expect(owner).toMatchObject({ factors: ['totp', 'passkey'], compliant: true });
    expect(page.results.find((m) => m.email === s.people.STAFF.email)).toMatchObject({
      factors: ['totp'],
      compliant: false,
    });
    expect((await put(s.people.OWNER, { require_mfa: 'any', grace_days: 0 })).statusCode).toBe(200);
  });

  it('reaches another instance on its next request, and is lifted as fast', async () => {
    const other = await startAnotherInstance(t);
    await freshOwner();
    try {
      const orgUrl = `/v1/organizations/${s.orgId}/`;
      const onOther = () =>
        other.app.inject({ method: 'GET', url: orgUrl, headers: bearer(s.people.ADMIN.token) });
      expect((await onOther()).json().code).toBe(ErrorCode.MFA_REQUIRED);
      expect((await put(s.people.OWNER, { require_mfa: 'off', grace_days: 7 })).statusCode).toBe(
        200,
      );
      expect((await onOther()).statusCode).toBe(200);
      expect((await put(s.people.OWNER, { require_mfa: 'any', grace_days: 0 })).statusCode).toBe(
        200,
      );
      expect((await onOther()).json().code).toBe(ErrorCode.MFA_REQUIRED);
    } finally {
      await other.close();
    }
  });
});
