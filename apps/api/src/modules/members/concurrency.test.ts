// engine-parity: locking and concurrency; twenty or more requests at once
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { organizationMembers } from '../../db/schema/index.ts';
import { activitiesOf } from './test-scene.ts';

/**
 * Role changes and removals of an organization's members run one at a time under the
 * organization's row lock, reading the actor's role afresh: however requests race, the
 * organization keeps an OWNER. Runs on both engines.
 */
describe('concurrent member changes', () => {
  let t: TestApp;
  let s: TenantScene;
  /** A second OWNER, made by the first test. */
  let second: Person;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const owners = async () =>
    t.ctx.db
      .select()
      .from(organizationMembers)
      .where(
        and(
          eq(organizationMembers.organization_id, s.orgId),
          eq(organizationMembers.role, 'OWNER'),
        ),
      );

  it('keeps an OWNER through twenty parallel demotions of both OWNERs, by each other and themselves', async () => {
    const first = s.people.OWNER;
    second = await s.member('OWNER');
    const pairs = [
      [first, second],
      [second, first],
      [first, first],
      [second, second],
    ] as const;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const [who, target] = pairs[i % pairs.length]!;
        return s.send('PUT', `/v1/organizations/${s.orgId}/users/${target.id}/role/`, who, {
          role: i % 3 === 0 ? 'STAFF' : 'ADMIN',
        });
      }),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.every((c) => [200, 403, 409].includes(c))).toBe(true);
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json().code).toBe(ErrorCode.LAST_OWNER);
    }
    expect(await owners()).toHaveLength(1);
    // Exactly one demotion happened; the others were refused or found nothing to change.
    const demotions = (await activitiesOf(t.ctx.db, s.orgId, 'UPDATE_MEMBER')).filter(
      (a) => a.data.from === 'OWNER',
    );
    expect(demotions).toHaveLength(1);
  });

  it('keeps an OWNER when two OWNERs remove each other twenty times in parallel', async () => {
    const [row] = await owners();
    const remaining = [s.people.OWNER, second].find((p) => p.id === row!.user_id)!;
    const other = await s.member('OWNER');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const [who, target] = i % 2 === 0 ? [remaining, other] : [other, remaining];
        return s.send(
          'DELETE',
          `/v1/organizations/${s.orgId}/users/${target.id}/?choice=remove_everywhere`,
          who,
        );
      }),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 204)).toHaveLength(1);
    expect(statuses.filter((c) => c === 404)).toHaveLength(19);
    expect(await owners()).toHaveLength(1);
    expect(await activitiesOf(t.ctx.db, s.orgId, 'DELETE_MEMBER')).toHaveLength(1);
  });
});
