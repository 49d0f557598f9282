import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/support/app.ts';

/** Log lines a request writes at a level, as parsed JSON. */
async function linesFor(
  level: string,
  send: (t: Awaited<ReturnType<typeof createTestApp>>) => Promise<unknown>,
) {
  const lines: string[] = [];
  const t = await createTestApp(
    { LOG_LEVEL: level },
    { logStream: { write: (l) => lines.push(l) } },
  );
  try {
    lines.length = 0; // start-up lines are not the request's
    await send(t);
    return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  } finally {
    await t.close();
  }
}

describe('request logs', () => {
  it('write one line per request: method, path without the query, status and time', async () => {
    const logged = await linesFor('info', async (t) => {
      await t.app.inject({ method: 'GET', url: '/v1/config?x=secret-1' });
      await t.app.inject({ method: 'POST', url: '/v1/rest-auth/app/login/', payload: {} });
      await t.app.inject({ method: 'GET', url: '/v1/nowhere/' });
    });
    expect(logged.map((l) => l.msg)).toEqual([
      expect.stringMatching(/^GET \/v1\/config 200 \d+(\.\d)?ms$/),
      expect.stringMatching(/^POST \/v1\/rest-auth\/app\/login\/ 400 \d+(\.\d)?ms$/),
      expect.stringMatching(/^GET \/v1\/nowhere\/ 404 \d+(\.\d)?ms$/),
    ]);
    expect(logged[0]).toMatchObject({ method: 'GET', path: '/v1/config', statusCode: 200 });
    expect(JSON.stringify(logged)).not.toContain('secret-1');
  });

  it('never write a share link’s token, at any level', async () => {
    const token = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA_-xsecrettokenvalue';
    for (const level of ['info', 'debug']) {
      const logged = await linesFor(level, async (t) => {
        await t.app.inject({ method: 'GET', url: `/v1/share/${token}/` });
        await t.app.inject({ method: 'GET', url: `/share/${token}` });
      });
      expect(logged.length, level).toBeGreaterThan(0);
      expect(JSON.stringify(logged), level).not.toContain(token);
      expect(JSON.stringify(logged), level).toContain('/share/:token');
    }
  });

  it('keep the detailed lines for LOG_LEVEL=debug', async () => {
    const logged = await linesFor('debug', async (t) => {
      await t.app.inject({ method: 'GET', url: '/v1/config' });
    });
    const messages = logged.map((l) => l.msg);
    expect(messages).toContain('incoming request');
    expect(messages).toContainEqual(expect.stringMatching(/^GET \/v1\/config 200/));
  });
});

describe('error logs', () => {
  it('leave out the parameters of a failed query (e-mails, hashes, codes)', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      { LOG_LEVEL: 'info' },
      { logStream: { write: (l) => lines.push(l) } },
    );
    try {
      const failure = await t.ctx.db
        .execute(sql`select ${'secret.person@example.com'}::text, 1 / 0`)
        .catch((err: unknown) => err);
      expect(String((failure as Error).message)).toContain('secret.person@example.com');
      t.app.log.error({ err: failure }, 'unhandled error');
      const logged = lines.join('');
      expect(logged).toContain('Failed query: select $1::text, 1 / 0');
      expect(logged).toContain('division by zero');
      expect(logged).toContain('params: [redacted]');
      expect(logged).not.toContain('secret.person@example.com');
    } finally {
      await t.close();
    }
  });
});
