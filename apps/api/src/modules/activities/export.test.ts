// engine-parity: COPY and exports
import { ACTIVITY_EXPORT_COLUMNS } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { EXPORT_BATCH, exportFileName, exportStream } from './export.ts';
import { recordActivity } from './service.ts';

/**
 * GET /v1/organizations/{orgId}/activities/export/: CSV and JSON Lines, streamed by keyset over
 * more than one batch (rows within one millisecond included), the log's filters and a date range,
 * never another organization's rows, spreadsheet-safe fields, the permission matrix, bad input.
 */
describe('the audit export', () => {
  let t: TestApp;
  let s: TenantScene;
  const MANY = EXPORT_BATCH * 2 + 500;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    // MANY sign-ins within 3 ms of one another: microseconds apart, most sharing a millisecond.
    await t.ctx.db.execute(sql`
      insert into activities (user_id, action, organization_id, data, created_at, modified_at)
      select ${s.people.ADMIN.id}::uuid, 'SIGN_IN', ${s.orgId}::uuid, '{}'::jsonb,
             timestamptz '2026-03-05 10:00:00+00' + make_interval(secs => g / 1000000.0),
             now()
      from generate_series(1, ${MANY}) g`);
    // Workspace activity on other days, one with a hostile name.
    await recordActivity(t.ctx.db, {
      userId: s.people.OWNER.id,
      action: 'ACCESS_WORKSPACE',
      objectType: 'client',
      objectId: crypto.randomUUID(),
      organizationId: s.orgId,
      data: { client_name: '=HYPERLINK("http://evil"), "quoted"', module: 'MAP' },
      at: new Date('2026-03-07T23:59:59.999Z'),
    });
    await recordActivity(t.ctx.db, {
      userId: s.people.OWNER.id,
      action: 'UPDATE_ORGANIZATION',
      objectType: 'organization',
      objectId: s.orgId,
      organizationId: s.orgId,
      at: new Date('2026-03-08T00:00:00.000Z'),
    });
    // Another organization's activity on the same days must never come out.
    await recordActivity(t.ctx.db, {
      userId: s.people.STRANGER.id,
      action: 'UPDATE_ORGANIZATION',
      organizationId: s.otherOrgId,
      at: new Date('2026-03-07T12:00:00.000Z'),
    });
  });
  afterAll(() => t.close());

  const url = (query: string, orgId = s.orgId) =>
    `/v1/organizations/${orgId}/activities/export/?${query}`;

  /** Splits a CSV body into records (fields may be quoted, with "" for a quote). */
  function parseCsv(body: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      if (quoted) {
        if (c === '"' && body[i + 1] === '"') {
          field += '"';
          i++;
        } else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') {
        row.push(field);
        field = '';
      } else if (c === '\r' && body[i + 1] === '\n') {
        row.push(field);
        rows.push(row);
        row = [];
        field = '';
        i++;
      } else field += c;
    }
    return rows;
  }

  it('streams every activity of the organization as CSV, newest first, over several batches', async () => {
    const res = await s.send('GET', url('format=csv'), s.people.OWNER);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['x-export-count']).toBe(String(MANY + 2));
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="activities-[a-z0-9-]+-start-now\.csv"$/,
    );
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual([...ACTIVITY_EXPORT_COLUMNS]);
    // The scene itself records some activities (sign-ins of its people are not in an organization).
    expect(rows.length).toBe(MANY + 2);
    expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length);
    const created = rows.map((r) => r[1]!);
    expect([...created].sort().reverse()).toEqual(created);
    expect(rows[0]!.slice(2, 4)).toEqual(['UPDATE_ORGANIZATION', s.people.OWNER.email]);
  });

  it('writes a hostile name so that a spreadsheet shows it, never runs it', async () => {
    const res = await s.send('GET', url('format=csv&action=ACCESS_WORKSPACE'), s.people.ADMIN);
    const [, row] = parseCsv(res.body);
    const workspace = row![ACTIVITY_EXPORT_COLUMNS.indexOf('workspace')];
    expect(workspace).toBe(`'=HYPERLINK("http://evil"), "quoted"`);
    expect(row![ACTIVITY_EXPORT_COLUMNS.indexOf('module')]).toBe('MAP');
    const field = async (value: string) => {
      const result = await t.ctx.db.execute(sql`select portolan_csv_field(${value}) as f`);
      return (result as unknown as { rows: { f: string }[] }).rows[0]!.f;
    };
    expect(await field('-1+2')).toBe("'-1+2");
    expect(await field('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(await field('\tx')).toBe("'\tx");
    expect(await field('plain')).toBe('plain');
    expect(await field('a,b')).toBe('"a,b"');
    expect(await field('line\nbreak')).toBe('"line\nbreak"');
    expect(await field('back\\slash')).toBe('back\\slash');
  });

  it('filters by whole days (UTC, both included), action and search, as JSON Lines', async () => {
    const res = await s.send(
      'GET',
      url('format=jsonl&from_date=2026-03-06&to_date=2026-03-07'),
      s.people.OWNER,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/-2026-03-06-2026-03-07\.jsonl"$/);
    const lines = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.action)).toEqual(['ACCESS_WORKSPACE']);
    expect(Object.keys(lines[0])).toEqual([...ACTIVITY_EXPORT_COLUMNS]);

    const day = await s.send(
      'GET',
      url('format=jsonl&from_date=2026-03-05&to_date=2026-03-05'),
      s.people.OWNER,
    );
    expect(day.headers['x-export-count']).toBe(String(MANY));
    expect(day.body.trimEnd().split('\n').length).toBe(MANY);

    const search = await s.send(
      'GET',
      url(`format=jsonl&key=${encodeURIComponent('Admin')}`),
      s.people.OWNER,
    );
    expect(search.headers['x-export-count']).toBe(String(MANY));
    const none = await s.send('GET', url('format=jsonl&from_date=2027-01-01'), s.people.OWNER);
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('');
  });

  it('never holds another organization’s rows', async () => {
    const res = await s.send('GET', url('format=jsonl', s.otherOrgId), s.people.STRANGER);
    const lines = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.user_email)).toEqual([s.people.STRANGER.email]);
  });

  it('writes the same bytes by COPY (PostgreSQL) as by keyset batches, and a reader going away frees the connection', async (context) => {
    if (!t.ctx.database.copyOut) return context.skip();
    for (const format of ['csv', 'jsonl'] as const) {
      const query = { format, key: 'a' };
      const copied = await text(exportStream(t.ctx.database, s.orgId, query));
      const batched = await text(exportStream({ db: t.ctx.db }, s.orgId, query));
      expect(copied.length).toBeGreaterThan(MANY * 50);
      expect(copied).toBe(batched);
    }
    const running = async () => {
      const result = await t.ctx.db.execute(
        sql`select count(*)::int as n from pg_stat_activity
             where application_name = 'portolan:copy' and datname = current_database()`,
      );
      return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
    };
    // Read a little (JSON Lines: the first chunk comes from the COPY), then go away, ten times.
    for (let i = 0; i < 10; i++) {
      const stream = exportStream(t.ctx.database, s.orgId, { format: 'jsonl' });
      for await (const chunk of stream) {
        expect(String(chunk)).toMatch(/^\{"id":/);
        expect(await running()).toBeGreaterThanOrEqual(1);
        break;
      }
    }
    await expect.poll(running, { timeout: 5_000 }).toBe(0);
    const res = await s.send('GET', url('format=csv&action=ACCESS_WORKSPACE'), s.people.OWNER);
    expect(res.statusCode).toBe(200);
  });

  it('is for OWNER and ADMIN: 401 anonymous, 403 STAFF and CLIENT, 404 another organization', async () => {
    expect((await s.send('GET', url('format=csv'), 'anonymous')).statusCode).toBe(401);
    expect((await s.send('GET', url('format=csv'), s.people.STAFF)).statusCode).toBe(403);
    expect((await s.send('GET', url('format=csv'), s.people.CLIENT)).statusCode).toBe(403);
    expect((await s.send('GET', url('format=csv'), s.people.STRANGER)).statusCode).toBe(404);
  });

  it('answers 400 naming the field for bad input', async () => {
    const cases: [string, string][] = [
      ['format=xlsx', 'format'],
      ['from_date=2026-02-30', 'from_date'],
      ['to_date=soon', 'to_date'],
      ['from_date=2026-03-08&to_date=2026-03-07', 'to_date'],
      ['action=DANCE', 'action'],
      ['page=2', 'page'],
    ];
    for (const [query, field] of cases) {
      const res = await s.send('GET', url(query), s.people.OWNER);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().details[0].field, query).toBe(field);
    }
  });

  it('names the file after the organization, in plain letters', () => {
    expect(
      exportFileName('Zürich Spedition & Co.', { format: 'csv', from_date: '2026-01-01' }),
    ).toBe('activities-zurich-spedition-co-2026-01-01-now.csv');
    expect(exportFileName('株式会社', { format: 'jsonl' })).toBe(
      'activities-organization-start-now.jsonl',
    );
  });
});
