// engine-parity: twenty or more requests at once
import { ErrorCode, type PlanLimits } from '@portolan/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { clients, organizationMembers, subscriptions } from '../../db/schema/index.ts';
import { createClient } from '../../seed/factories.ts';

/**
 * Spec §5's limits, checked under the organization's row lock in the transaction that creates:
 * fifty requests at once never overshoot, on both engines. A refusal names the limit.
 */
describe('plan limits', () => {
  let t: TestApp;
  let s: TenantScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const setLimits = (limits: Partial<PlanLimits>, orgId = s.orgId) =>
    t.ctx.db
      .update(subscriptions)
      .set({
        limits: { max_workspaces: -1, max_internal_users: -1, max_external_users: -1, ...limits },
      })
      .where(eq(subscriptions.organization_id, orgId));
  const liveWorkspaces = async () =>
    (
      await t.ctx.db
        .select({ id: clients.id })
        .from(clients)
        .where(and(eq(clients.organization_id, s.orgId), isNull(clients.deleted_at)))
    ).length;
  const members = async (orgId = s.orgId) =>
    t.ctx.db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(eq(organizationMembers.organization_id, orgId));

  it('makes exactly max_workspaces workspaces of fifty parallel creations', async () => {
    await setLimits({ max_workspaces: 3 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.send('POST', `/v1/organizations/${s.orgId}/clients/`, s.people.OWNER, {
          name: `Limited ${i}`,
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 201)).toHaveLength(3);
    expect(statuses.filter((c) => c === 403)).toHaveLength(47);
    const refused = answers.find((r) => r.statusCode === 403)!.json();
    expect(refused.code).toBe(ErrorCode.PLAN_LIMIT_REACHED);
    expect(refused.details).toEqual({ limit: 'max_workspaces', max: 3, current: 3 });
    expect(refused.message).toMatch(/allows 3 workspaces/);
    expect(await liveWorkspaces()).toBe(3);
  });

  it('counts pending invitations against max_internal_users, fifty at once', async () => {
    // OWNER, ADMIN and STAFF are internal: room for two more.
    await setLimits({ max_internal_users: 5 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.send('POST', `/v1/organizations/${s.orgId}/users/invitation/`, s.people.OWNER, {
          email: `internal.${i}@limits.example`,
          role: 'STAFF',
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 201)).toHaveLength(2);
    expect(statuses.filter((c) => c === 403)).toHaveLength(48);
    expect(answers.find((r) => r.statusCode === 403)!.json().details.limit).toBe(
      'max_internal_users',
    );
    const internal = (await members()).filter((m) => m.role !== 'CLIENT');
    expect(internal).toHaveLength(5);
  });

  it('counts outsiders invited to a workspace against max_external_users, fifty at once', async () => {
    await setLimits({ max_external_users: 3 });
    const client = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.send('POST', `/v1/clients/${client.id}/users/invitation/`, s.people.OWNER, {
          email: `external.${i}@limits.example`,
          role: 'CLIENT',
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    // The CLIENT member of the scene is the first external user: room for two.
    expect(statuses.filter((c) => c === 201)).toHaveLength(2);
    expect(statuses.filter((c) => c === 403)).toHaveLength(48);
    expect((await members()).filter((m) => m.role === 'CLIENT')).toHaveLength(3);
  });

  it('refuses with 402 SUBSCRIPTION_REQUIRED when the subscription is not active, and writes nothing', async () => {
    await setLimits({});
    await t.ctx.db
      .update(subscriptions)
      .set({ status: 'EXPIRED', is_active: false, expired_in: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.organization_id, s.orgId));
    const before = await liveWorkspaces();
    const workspace = await s.send(
      'POST',
      `/v1/organizations/${s.orgId}/clients/`,
      s.people.OWNER,
      {
        name: 'Needs a plan',
      },
    );
    expect(workspace.statusCode).toBe(402);
    expect(workspace.json().code).toBe(ErrorCode.SUBSCRIPTION_REQUIRED);
    const invite = await s.send(
      'POST',
      `/v1/organizations/${s.orgId}/users/invitation/`,
      s.people.OWNER,
      {
        email: 'nobody.yet@limits.example',
        role: 'STAFF',
      },
    );
    expect(invite.statusCode).toBe(402);
    expect(await liveWorkspaces()).toBe(before);
    await t.ctx.db.delete(subscriptions).where(eq(subscriptions.organization_id, s.orgId));
    const none = await s.send('POST', `/v1/organizations/${s.orgId}/clients/`, s.people.ADMIN, {
      name: 'Still needs a plan',
    });
    expect(none.statusCode).toBe(402);
  });

  it('starts a new organization on a STANDARD trial with the plan limits', async () => {
    const person = await s.person();
    const created = await s.send('POST', '/v1/organizations/', person, { name: 'Trial Co.' });
    expect(created.statusCode).toBe(201);
    const [row] = await t.ctx.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organization_id, created.json().id));
    expect(row).toMatchObject({
      status: 'TRIALING',
      is_active: true,
      subscriber_id: person.id,
      limits: { max_workspaces: 3, max_internal_users: 5, max_external_users: 10 },
    });
    expect(row!.expired_in!.getTime() - row!.current_period_start!.getTime()).toBe(14 * 86_400_000);
    const workspace = await s.send(
      'POST',
      `/v1/organizations/${created.json().id}/clients/`,
      person,
      {
        name: 'First',
      },
    );
    expect(workspace.statusCode).toBe(201);
  });
});

describe('plan limits with billing off', () => {
  it('allows everything and starts no trial', async () => {
    const t = await createTestApp({ FEATURE_BILLING: 'false' });
    try {
      const s = await createTenantScene(t);
      await t.ctx.db.delete(subscriptions).where(eq(subscriptions.organization_id, s.orgId));
      const res = await s.send('POST', `/v1/organizations/${s.orgId}/clients/`, s.people.OWNER, {
        name: 'Free',
      });
      expect(res.statusCode).toBe(201);
      const person = await s.person();
      const org = await s.send('POST', '/v1/organizations/', person, { name: 'No trial' });
      expect(org.statusCode).toBe(201);
      expect(
        await t.ctx.db
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.organization_id, org.json().id)),
      ).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
