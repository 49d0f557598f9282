import { ErrorCode, RELEASE_NOTE_MAX_LENGTH } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  ORG_PEOPLE,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { releaseNotes, releaseNoteViews } from '../../db/schema/index.ts';
import { DEMO_OWNER, seedDemo } from '../../seed/demo.ts';
import { grantPlatformAdmin } from './platform-admins.ts';

/**
 * Release notes: everyone signed in reads them and marks the latest viewed (the toggle's dot);
 * only platform administrators write them, and what they write is stored sanitized.
 */
describe('release notes', () => {
  let t: TestApp;
  let s: TenantScene;
  let admin: Person;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    admin = await s.person({ first_name: 'Pat', last_name: 'Platform' });
    await grantPlatformAdmin(t.ctx.db, admin.email);
  });
  afterAll(() => t.close());

  const note = (over: Record<string, unknown> = {}) => ({
    version: `v9.${Math.floor(Math.random() * 1e6)}`,
    release_date: '2026-11-20',
    release_note: '<p>Faster <strong>shipment</strong> lists.</p>',
    ...over,
  });
  const publish = async (over: Record<string, unknown> = {}) => {
    const res = await s.send('POST', '/v1/release-notes/', admin, note(over));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; version: string; release_date: string };
  };
  const status = async (who: Person) => {
    const res = await s.send('GET', '/v1/release-notes/status/', who);
    expect(res.statusCode).toBe(200);
    return res.json() as {
      latest_id: string | null;
      latest_version: string | null;
      has_unviewed: boolean;
      is_platform_admin: boolean;
    };
  };
  const everyone = () => [...ORG_PEOPLE.map((p) => s.people[p]), admin];

  it('with no notes: an empty list, no dot, and marking viewed records nothing', async () => {
    const list = await s.send('GET', '/v1/release-notes/', s.people.STAFF);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect(await status(s.people.STAFF)).toEqual({
      latest_id: null,
      latest_version: null,
      has_unviewed: false,
      is_platform_admin: false,
    });
    const viewed = await s.send('POST', '/v1/release-notes/latest/viewed/', s.people.STAFF);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.json()).toMatchObject({ latest_id: null, has_unviewed: false });
    expect(await t.ctx.db.select().from(releaseNoteViews)).toEqual([]);
  });

  it('anonymous callers get 401 on every call', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['GET', '/v1/release-notes/'],
      ['GET', '/v1/release-notes/status/'],
      ['POST', '/v1/release-notes/latest/viewed/'],
      ['GET', `/v1/release-notes/${id}/`],
      ['POST', '/v1/release-notes/'],
      ['POST', '/v1/release-notes/preview/'],
      ['PATCH', `/v1/release-notes/${id}/`],
      ['DELETE', `/v1/release-notes/${id}/`],
    ] as const) {
      const res = await s.send(method, url, 'anonymous', method === 'GET' ? undefined : note());
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
    }
  });

  it('only a platform administrator writes: every organization role and a stranger get 403, even with a bad body', async () => {
    const existing = await publish();
    for (const person of ORG_PEOPLE) {
      const who = s.people[person];
      const attempts = [
        await s.send('POST', '/v1/release-notes/', who, note()),
        await s.send('POST', '/v1/release-notes/', who, { version: '' }),
        await s.send('POST', '/v1/release-notes/preview/', who, { release_note: '<p>x</p>' }),
        await s.send('PATCH', `/v1/release-notes/${existing.id}/`, who, { version: 'v0' }),
        await s.send('DELETE', `/v1/release-notes/${existing.id}/`, who),
      ];
      for (const res of attempts) {
        expect(res.statusCode, `${person}: ${res.body}`).toBe(403);
        expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
      }
      expect((await status(who)).is_platform_admin).toBe(false);
    }
    const [row] = await t.ctx.db
      .select()
      .from(releaseNotes)
      .where(eq(releaseNotes.id, existing.id));
    expect(row?.version).toBe(existing.version);
    expect((await status(admin)).is_platform_admin).toBe(true);
  });

  it('everyone signed in reads the list, newest first (release date, then creation), in pages', async () => {
    await t.ctx.db.delete(releaseNotes);
    const older = await publish({ version: 'v1.0.0', release_date: '2025-01-31' });
    const newest = await publish({ version: 'v1.2.0', release_date: '2026-03-01' });
    const sameDayFirst = await publish({ version: 'v1.1.0', release_date: '2025-06-15' });
    const sameDayLater = await publish({ version: 'v1.1.1', release_date: '2025-06-15' });
    for (const who of everyone()) {
      const res = await s.send('GET', '/v1/release-notes/', who);
      expect(res.statusCode).toBe(200);
      expect(res.json().results.map((n: { id: string }) => n.id)).toEqual([
        newest.id,
        sameDayLater.id,
        sameDayFirst.id,
        older.id,
      ]);
    }
    const page = await s.send('GET', '/v1/release-notes/?limit=3&page=2', s.people.CLIENT);
    expect(page.json()).toMatchObject({ count: 4, next: null, previous: 1 });
    expect(page.json().results).toEqual([
      expect.objectContaining({
        id: older.id,
        version: 'v1.0.0',
        release_date: '2025-01-31',
        release_note: '<p>Faster <strong>shipment</strong> lists.</p>',
        created: expect.any(String),
        modified: expect.any(String),
      }),
    ]);
    const past = await s.send('GET', '/v1/release-notes/?page=9', s.people.CLIENT);
    expect(past.json()).toMatchObject({ count: 4, results: [] });
    const one = await s.send('GET', `/v1/release-notes/${newest.id}/`, s.people.STAFF);
    expect(one.json()).toMatchObject({ id: newest.id, version: 'v1.2.0' });
    const bad = await s.send('GET', '/v1/release-notes/?limit=0', s.people.OWNER);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('limit');
    const missing = await s.send(
      'GET',
      '/v1/release-notes/00000000-0000-4000-8000-000000000000/',
      s.people.OWNER,
    );
    expect(missing.statusCode).toBe(404);
    expect((await s.send('GET', '/v1/release-notes/nope/', s.people.OWNER)).statusCode).toBe(400);
  });

  it('the dot: shown until the latest is marked viewed, per user; back for a newer note; idempotent', async () => {
    await t.ctx.db.delete(releaseNotes);
    const first = await publish({ release_date: '2026-01-10' });
    const staff = s.people.STAFF;
    const client = s.people.CLIENT;
    expect(await status(staff)).toMatchObject({ latest_id: first.id, has_unviewed: true });

    const viewed = await s.send('POST', '/v1/release-notes/latest/viewed/', staff);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.json()).toMatchObject({ latest_id: first.id, has_unviewed: false });
    expect((await s.send('POST', '/v1/release-notes/latest/viewed/', staff)).statusCode).toBe(200);
    expect(
      await t.ctx.db.select().from(releaseNoteViews).where(eq(releaseNoteViews.user_id, staff.id)),
    ).toHaveLength(1);
    // Someone else still has the dot.
    expect((await status(client)).has_unviewed).toBe(true);

    // An older release published later does not change the latest: no dot.
    await publish({ release_date: '2025-12-01' });
    expect((await status(staff)).has_unviewed).toBe(false);
    // A newer one does.
    const second = await publish({ release_date: '2026-02-01' });
    expect(await status(staff)).toMatchObject({
      latest_id: second.id,
      latest_version: second.version,
      has_unviewed: true,
    });
    await s.send('POST', '/v1/release-notes/latest/viewed/', staff);
    expect((await status(staff)).has_unviewed).toBe(false);

    // The newest deleted: the one before it was published before the user looked, no dot.
    expect((await s.send('DELETE', `/v1/release-notes/${second.id}/`, admin)).statusCode).toBe(204);
    expect(await status(staff)).toMatchObject({ latest_id: first.id, has_unviewed: false });
  });

  it('creates, changes and deletes as a platform administrator', async () => {
    const created = await s.send('POST', '/v1/release-notes/', admin, {
      version: '  v2.0.0  ',
      release_date: '2026-12-31',
      release_note: '<p>Customs <em>declarations</em> as PDF.</p>',
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ version: 'v2.0.0', release_date: '2026-12-31' });
    const [row] = await t.ctx.db.select().from(releaseNotes).where(eq(releaseNotes.id, body.id));
    expect(row?.created_by).toBe(admin.id);

    const changed = await s.send('PATCH', `/v1/release-notes/${body.id}/`, admin, {
      release_date: '2027-01-02',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      version: 'v2.0.0',
      release_date: '2027-01-02',
      release_note: '<p>Customs <em>declarations</em> as PDF.</p>',
    });
    const renamed = await s.send('PATCH', `/v1/release-notes/${body.id}/`, admin, {
      version: 'v2.0.1',
      release_note: '<p>Fixed.</p>',
    });
    expect(renamed.json()).toMatchObject({ version: 'v2.0.1', release_note: '<p>Fixed.</p>' });

    const gone = await s.send('DELETE', `/v1/release-notes/${body.id}/`, admin);
    expect(gone.statusCode).toBe(204);
    expect(gone.body).toBe('');
    for (const res of [
      await s.send('DELETE', `/v1/release-notes/${body.id}/`, admin),
      await s.send('PATCH', `/v1/release-notes/${body.id}/`, admin, { version: 'v3' }),
      await s.send('GET', `/v1/release-notes/${body.id}/`, admin),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
    }
  });

  it('refuses a duplicate version (case-insensitively) with 409 on the version field', async () => {
    const taken = await publish({ version: 'v4.5.6-Beta' });
    const dup = await s.send('POST', '/v1/release-notes/', admin, note({ version: 'V4.5.6-beta' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: ErrorCode.VERSION_TAKEN,
      details: [{ field: 'version', message: expect.any(String) }],
    });
    const other = await publish();
    const clash = await s.send('PATCH', `/v1/release-notes/${other.id}/`, admin, {
      version: taken.version,
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe(ErrorCode.VERSION_TAKEN);
    // Its own version again is no clash.
    const same = await s.send('PATCH', `/v1/release-notes/${taken.id}/`, admin, {
      version: 'V4.5.6-BETA',
    });
    expect(same.statusCode).toBe(200);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ release_date: '2026-01-01', release_note: '<p>x</p>' }, 'version'],
      [note({ version: '   ' }), 'version'],
      [note({ version: 'v'.repeat(33) }), 'version'],
      [note({ version: 'v1\n2' }), 'version'],
      [note({ version: 7 }), 'version'],
      [{ version: 'v1', release_note: '<p>x</p>' }, 'release_date'],
      [note({ release_date: '11/20/2026' }), 'release_date'],
      [note({ release_date: '2026-02-30' }), 'release_date'],
      [note({ release_date: '2026-11-20T00:00:00Z' }), 'release_date'],
      [note({ release_date: '0000-01-01' }), 'release_date'],
      [note({ release_date: '3000-01-01' }), 'release_date'],
      [{ version: 'v1', release_date: '2026-01-01' }, 'release_note'],
      [note({ release_note: '   ' }), 'release_note'],
      [note({ release_note: 'x'.repeat(RELEASE_NOTE_MAX_LENGTH + 1) }), 'release_note'],
      [note({ release_note: 'a\u0000b' }), 'release_note'],
      [note({ release_note: 'a\ud800b' }), 'release_note'],
      // Nothing readable once sanitized.
      [note({ release_note: '<script>alert(1)</script><br>' }), 'release_note'],
      [note({ extra: true }), 'extra'],
    ];
    for (const [payload, field] of cases) {
      const res = await s.send('POST', '/v1/release-notes/', admin, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const ok = await s.send(
      'POST',
      '/v1/release-notes/',
      admin,
      note({ release_note: 'x'.repeat(RELEASE_NOTE_MAX_LENGTH) }),
    );
    expect(ok.statusCode).toBe(201);
    const existing = await publish();
    for (const payload of [{}, { version: '' }, { release_date: 'soon' }, { other: 1 }]) {
      const res = await s.send('PATCH', `/v1/release-notes/${existing.id}/`, admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const raw = await t.app.inject({
      method: 'POST',
      url: '/v1/release-notes/',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      payload: '{"version":',
    });
    expect(raw.statusCode).toBe(400);
    expect(raw.json().code).toBe(ErrorCode.INVALID_JSON);
  });

  it('stores a hostile note clean: no script, no handler, no javascript: link, no style or class', async () => {
    const hostile =
      '<p style="color:red" class="x" onclick="steal()">Hello <script>alert(1)</script>' +
      '<img src=x onerror="alert(2)"><b onmouseover="alert(3)">bold</b></p>' +
      '<a href="javascript:alert(4)">js</a> <a href=" JaVaScRiPt:alert(5)">js2</a> ' +
      '<a href="java&#x09;script:alert(6)">js3</a> <a href="data:text/html,<b>x</b>">data</a> ' +
      '<a href="https://example.com/a?b=1&c=2" target="_self" rel="opener">ok</a> ' +
      '<a href="mailto:ops@example.com">mail</a>' +
      '<style>p{display:none}</style><iframe src="https://evil.example"></iframe>' +
      '<svg onload="alert(7)"><circle/></svg><h1>Big</h1><h3>Small</h3><!-- hidden -->' +
      '<ul><li>one</li></ul><pre><code>a &lt; b</code></pre><blockquote>q</blockquote>';
    const created = await publish({ release_note: hostile });
    const [row] = await t.ctx.db.select().from(releaseNotes).where(eq(releaseNotes.id, created.id));
    const stored = row!.release_note;
    expect(stored).toBe(
      '<p>Hello <b>bold</b></p>js js2 js3 data ' +
        '<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">ok</a> ' +
        '<a href="mailto:ops@example.com" rel="noopener noreferrer" target="_blank">mail</a>' +
        'Big<h3>Small</h3><ul><li>one</li></ul><pre><code>a &lt; b</code></pre><blockquote>q</blockquote>',
    );
    for (const bad of ['script', 'onerror', 'onclick', 'javascript:', 'style', 'class=', 'iframe'])
      expect(stored.toLowerCase()).not.toContain(bad);

    // A change is sanitized the same way; the preview shows what would be stored.
    const changed = await s.send('PATCH', `/v1/release-notes/${created.id}/`, admin, {
      release_note: '<p onclick="x()">Again<script>1</script></p>',
    });
    expect(changed.json().release_note).toBe('<p>Again</p>');
    const preview = await s.send('POST', '/v1/release-notes/preview/', admin, {
      release_note: hostile,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({ release_note: stored });
    const empty = await s.send('POST', '/v1/release-notes/preview/', admin, { release_note: '' });
    expect(empty.json()).toEqual({ release_note: '' });
    const tooLong = await s.send('POST', '/v1/release-notes/preview/', admin, {
      release_note: 'x'.repeat(RELEASE_NOTE_MAX_LENGTH + 1),
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('whatever a platform administrator sends, the answer is never a 5xx and a stored note is clean', async () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('<p>x</p>', '<a href="javascript:x">y</a>', '2026-02-29', '', ' '),
    );
    const field = fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean());
    const body = fc.record(
      {
        version: field,
        release_date: fc.oneof(field, fc.constant('2026-05-05')),
        release_note: field,
      },
      { requiredKeys: [] },
    );
    const target = await publish();
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('POST', 'PATCH', 'PREVIEW'), async (payload, kind) => {
        const res =
          kind === 'POST'
            ? await s.send('POST', '/v1/release-notes/', admin, payload)
            : kind === 'PATCH'
              ? await s.send('PATCH', `/v1/release-notes/${target.id}/`, admin, payload)
              : await s.send('POST', '/v1/release-notes/preview/', admin, payload);
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (res.statusCode < 300) {
          const html = res.json().release_note as string;
          expect(html).not.toMatch(/<script|href="javascript:|<[^>]*\son\w+=/i);
        } else {
          expect(res.json().code).toEqual(expect.any(String));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the demo seed makes its owner a platform administrator with two release notes', async () => {
    await t.ctx.db.delete(releaseNotes);
    expect(await seedDemo(t.ctx.db, 'transit')).toEqual({ created: true });
    const owner = await s.person({ email: `seed.viewer.${Date.now()}@example.com` });
    const list = await s.send('GET', '/v1/release-notes/', owner);
    expect(list.json().results.map((n: { version: string }) => n.version)).toEqual([
      'v1.7.4',
      'v1.7.3',
    ]);
    expect(await status(owner)).toMatchObject({ latest_version: 'v1.7.4', has_unviewed: true });
    const { granted } = await grantPlatformAdmin(t.ctx.db, DEMO_OWNER.email);
    expect(granted).toBe(false);
  });
});
