import { LEDGER_ENTRY_TYPES, type LedgerEntryType } from '@portolan/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { ledgerEntries } from '../../db/schema/index.ts';

/**
 * GET …/balance/history filters, as a property: for any date range, type and page, the answer is
 * exactly the entries a plain filter over all of them picks, newest first. The entries are written
 * straight into the ledger with chosen times (the history only reads them), spread over days so
 * that day edges (00:00 and 23:59:59.999 UTC) are hit.
 */
describe('balance history filters (property)', () => {
  let t: TestApp;
  let s: TenantScene;
  const FIRST_DAY = Date.UTC(2026, 2, 1);
  const DAY = 86_400_000;
  const DAYS = 20;
  let all: { id: string; type: LedgerEntryType; created: number }[];

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    // 120 entries: every type, times at day starts, day ends and in between.
    const rows = Array.from({ length: 120 }, (_, i) => {
      const day = i % DAYS;
      const within = [0, DAY - 1, 12 * 3_600_000, (i * 7_919_000) % DAY][i % 4]!;
      return {
        organization_id: s.orgId,
        type: LEDGER_ENTRY_TYPES[i % LEDGER_ENTRY_TYPES.length]!,
        amount: 100 + i,
        balance_after: 100 + i,
        description: `Entry ${i}`,
        source: 'system' as const,
        created_at: new Date(FIRST_DAY + day * DAY + within),
      };
    });
    const inserted = await t.ctx.db.insert(ledgerEntries).values(rows).returning();
    all = inserted.map((r) => ({ id: r.id, type: r.type, created: r.created_at.getTime() }));
    // Another organization's entries on the same days must never show.
    await t.ctx.db
      .insert(ledgerEntries)
      .values(rows.slice(0, 30).map((r) => ({ ...r, organization_id: s.otherOrgId })));
  });
  afterAll(() => t.close());

  const dayText = (n: number) => new Date(FIRST_DAY + n * DAY).toISOString().slice(0, 10);

  it('answers exactly the matching entries, newest first, for any filters and page', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.integer({ min: -2, max: DAYS + 1 }), { nil: undefined }),
        fc.option(fc.integer({ min: -2, max: DAYS + 1 }), { nil: undefined }),
        fc.option(fc.constantFrom(...LEDGER_ENTRY_TYPES), { nil: undefined }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 50 }),
        async (from, to, type, page, limit) => {
          fc.pre(from === undefined || to === undefined || from <= to);
          const params = new URLSearchParams({ page: String(page), limit: String(limit) });
          if (from !== undefined) params.set('from_date', dayText(from));
          if (to !== undefined) params.set('to_date', dayText(to));
          if (type) params.set('type', type);
          const res = await s.send(
            'GET',
            `/v1/organizations/${s.orgId}/balance/history?${params}`,
            s.people.OWNER,
          );
          expect(res.statusCode).toBe(200);

          const matching = all
            .filter((e) => from === undefined || e.created >= FIRST_DAY + from * DAY)
            .filter((e) => to === undefined || e.created < FIRST_DAY + (to + 1) * DAY)
            .filter((e) => !type || e.type === type)
            .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
          const body = res.json();
          expect(body.count).toBe(matching.length);
          expect(body.results.map((e: { id: string }) => e.id)).toEqual(
            matching.slice((page - 1) * limit, page * limit).map((e) => e.id),
          );
          expect(body.next).toBe(page * limit < matching.length ? page + 1 : null);
        },
      ),
      { numRuns: 60 },
    );
  });
});
