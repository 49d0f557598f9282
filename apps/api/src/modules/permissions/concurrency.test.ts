// engine-parity: locking and concurrency; twenty or more requests at once
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  accessRules,
  customRoleRules,
  customRoles,
  memberCustomRoles,
  memberPermissionOverrides,
} from '../../db/schema/index.ts';
import { permissionScene, ruleBody, type PermissionScene } from './test-scene.ts';

/**
 * Races, on both engines: names stay unique per scope under parallel creations (the scope's row
 * lock and the live-name index), a member's roles and overrides end as one whole request left
 * them, and a rule is never deleted under a role being saved with it.
 */
describe('concurrent changes of rules, roles and a member’s permissions', () => {
  let t: TestApp;
  let s: PermissionScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await permissionScene(t);
  });
  afterAll(() => t.close());

  const expectOneWinner = (statuses: number[], created = 201) => {
    expect(statuses.filter((c) => c === created)).toHaveLength(1);
    expect(statuses.filter((c) => c === 409)).toHaveLength(statuses.length - 1);
  };

  it('makes one rule of twenty parallel creations of one name in any case, 19 × 409 NAME_TAKEN', async () => {
    const people = [s.people.OWNER, s.people.ADMIN];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.send('POST', s.org('access-rules/'), people[i % 2]!, ruleBody(i % 3 ? 'Race' : 'RACE')),
      ),
    );
    expectOneWinner(answers.map((r) => r.statusCode));
    for (const r of answers.filter((a) => a.statusCode === 409))
      expect(r.json().code).toBe(ErrorCode.NAME_TAKEN);
    const live = await t.ctx.db
      .select()
      .from(accessRules)
      .where(
        and(
          eq(accessRules.organization_id, s.orgId),
          sql`lower(${accessRules.name}) = 'race'`,
          isNull(accessRules.deleted_at),
        ),
      );
    expect(live).toHaveLength(1);
  });

  it('makes one role of twenty parallel creations of one name in a workspace', async () => {
    const people = [s.people.OWNER, s.people.MANAGER];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.send('POST', s.ws('custom-roles/'), people[i % 2]!, {
          name: i % 2 ? 'Crew' : 'crew',
          rules: [],
        }),
      ),
    );
    expectOneWinner(answers.map((r) => r.statusCode));
    const live = await t.ctx.db
      .select()
      .from(customRoles)
      .where(
        and(eq(customRoles.client_id, s.workspaceId), sql`lower(${customRoles.name}) = 'crew'`),
      );
    expect(live).toHaveLength(1);
  });

  it('leaves a member with exactly one request’s roles after twenty parallel assignments', async () => {
    const roles = await Promise.all(
      ['A', 'B', 'C'].map(
        async (name) =>
          (
            await s.send('POST', s.ws('custom-roles/'), s.people.OWNER, {
              name: `Set ${name}`,
              rules: [],
            })
          ).json().id as string,
      ),
    );
    const member = await s.workspaceMember('STAFF');
    const bodies = Array.from({ length: 20 }, (_, i) => {
      const order = [roles[i % 3]!, roles[(i + 1) % 3]!, roles[(i + 2) % 3]!].slice(0, 1 + (i % 3));
      return { roles: order.map((role, at) => ({ role, priority: at + 1 })) };
    });
    const answers = await Promise.all(
      bodies.map((b, i) =>
        s.send(
          'PUT',
          s.ws(`users/${member.id}/custom-roles/`),
          i % 2 ? s.people.OWNER : s.people.MANAGER,
          b,
        ),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(bodies.map(() => 200));
    const stored = await t.ctx.db
      .select({ role: memberCustomRoles.role_id, priority: memberCustomRoles.priority })
      .from(memberCustomRoles)
      .where(eq(memberCustomRoles.user_id, member.id))
      .orderBy(memberCustomRoles.priority);
    expect(bodies.map((b) => b.roles)).toContainEqual(stored);
  });

  it('leaves a group’s overrides as one of twenty parallel PUTs set them', async () => {
    const member = await s.workspaceMember('STAFF');
    const bodies = Array.from({ length: 20 }, (_, i) => ({
      permissions: [
        { permission: 'tr.history.view', status: i % 2 ? 'ALLOW' : 'DENY' },
        ...(i % 3 ? [{ permission: 'tr.history.extract', status: 'DENY' }] : []),
      ],
    }));
    const answers = await Promise.all(
      bodies.map((b) =>
        s.send('PUT', s.ws(`users/${member.id}/permissions/TR/history/`), s.people.OWNER, b),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(bodies.map(() => 200));
    const stored = await t.ctx.db
      .select({
        permission: memberPermissionOverrides.permission,
        status: memberPermissionOverrides.status,
      })
      .from(memberPermissionOverrides)
      .where(eq(memberPermissionOverrides.user_id, member.id))
      .orderBy(memberPermissionOverrides.permission);
    const sorted = (list: { permission: string }[]) =>
      [...list].sort((a, b) => a.permission.localeCompare(b.permission));
    expect(bodies.map((b) => sorted(b.permissions))).toContainEqual(stored);
  });

  it('never leaves a live role listing a deleted rule when deletion races role creation', async () => {
    const rule = (
      await s.send('POST', s.org('access-rules/'), s.people.OWNER, ruleBody('Contended'))
    ).json();
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        s.send('POST', s.ws('custom-roles/'), s.people.OWNER, {
          name: `Contender ${i}`,
          rules: [{ rule: rule.id, priority: 1 }],
        }),
      ),
      s.send('DELETE', s.org(`access-rules/${rule.id}/`), s.people.ADMIN),
    ]);
    for (const r of answers) expect([201, 204, 400, 409]).toContain(r.statusCode);
    const [row] = await t.ctx.db.select().from(accessRules).where(eq(accessRules.id, rule.id));
    const listing = await t.ctx.db
      .select()
      .from(customRoleRules)
      .innerJoin(
        customRoles,
        and(eq(customRoles.id, customRoleRules.role_id), isNull(customRoles.deleted_at)),
      )
      .where(eq(customRoleRules.rule_id, rule.id));
    if (row!.deleted_at) expect(listing).toEqual([]);
    else expect(listing.length).toBeGreaterThan(0);
  });
});
