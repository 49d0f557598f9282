import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginFailures } from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';

/** Failed sign-ins are kept in the database so the lockout holds across instances. */
export async function recordLoginFailure(
  db: Db,
  clock: Clock,
  email: string,
  ip: string | undefined,
) {
  await db.insert(loginFailures).values({ email, ip: ip ?? null, created_at: clock.now() });
}

export async function recentLoginFailures(db: Db, email: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gt(loginFailures.created_at, since)));
  return row?.n ?? 0;
}
