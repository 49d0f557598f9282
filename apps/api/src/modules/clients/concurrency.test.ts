// engine-parity: locking and concurrency; twenty or more requests at once
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { activities, clients } from '../../db/schema/index.ts';

/**
 * Names are unique per organization among live workspaces even when creations race: the unique
 * partial index decides, under the organization's row lock. Runs on both engines.
 */
describe('concurrent workspace creation', () => {
  let t: TestApp;
  let s: TenantScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const live = (name: string) =>
    t.ctx.db
      .select()
      .from(clients)
      .where(
        and(
          eq(clients.organization_id, s.orgId),
          sql`lower(${clients.name}) = lower(${name})`,
          isNull(clients.deleted_at),
        ),
      );

  it('makes one workspace of twenty parallel creations of one name, and 19 × 409, no 5xx', async () => {
    const people = [s.people.OWNER, s.people.ADMIN];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? s.send('POST', `/v1/organizations/${s.orgId}/clients/`, people[i % 4 === 0 ? 0 : 1]!, {
              name: i % 3 === 0 ? 'Race' : 'RACE',
            })
          : s.send('POST', '/v1/clients/', people[i % 4 === 1 ? 0 : 1]!, {
              organization: s.orgId,
              name: 'race',
            }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 201)).toHaveLength(1);
    expect(statuses.filter((c) => c === 409)).toHaveLength(19);
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json().code).toBe(ErrorCode.NAME_TAKEN);
    }
    const rows = await live('race');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(answers.find((r) => r.statusCode === 201)!.json().id);
    // Only the winner left anything behind.
    const created = await t.ctx.db
      .select()
      .from(activities)
      .where(
        and(eq(activities.organization_id, s.orgId), eq(activities.action, 'CREATE_WORKSPACE')),
      );
    expect(created).toHaveLength(1);
  });

  it('lets the name be used again after a delete, once, even in parallel', async () => {
    const [row] = await live('race');
    const del = await s.send(
      'DELETE',
      `/v1/organizations/${s.orgId}/clients/${row!.id}/`,
      s.people.OWNER,
    );
    expect(del.statusCode).toBe(204);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        s.send('POST', `/v1/organizations/${s.orgId}/clients/`, s.people.STAFF, { name: 'Race' }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await live('race')).toHaveLength(1);
  });
});
