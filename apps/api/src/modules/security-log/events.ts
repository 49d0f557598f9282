import type { FastifyRequest } from 'fastify';
import type {
  SecurityEvent,
  SecurityEventKind,
  SecurityEventListResponse,
  SignInMethod,
} from '@portolan/contract';
import { count, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { securityEvents } from '../../db/schema/index.ts';
import { pageFromRows, rowsOf, windowTotal, type PageQuery } from '../../lib/pagination.ts';
import { describeUserAgent } from '../../lib/user-agent.ts';

/** Where a request came from, as the log keeps it. */
export interface RequestOrigin {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export const originOf = (request: FastifyRequest): RequestOrigin => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

export interface SecurityEventRecord extends RequestOrigin {
  userId: string;
  kind: SecurityEventKind;
  method?: SignInMethod | null;
  factor?: SignInMethod | null;
  at: Date;
}

/**
 * The insert of one event, to run on its own or as a CTE of a statement that does what it records
 * (a sign-in's session), so the two commit together.
 */
export function securityEventInsert(db: Db | Tx, event: SecurityEventRecord) {
  return db.insert(securityEvents).values({
    user_id: event.userId,
    kind: event.kind,
    method: event.method ?? null,
    factor: event.factor ?? null,
    ip: event.ip ?? null,
    user_agent: event.userAgent?.slice(0, 300) ?? null,
    created_at: event.at,
  });
}

/** Records an event in the caller's transaction. */
export async function recordSecurityEvent(tx: Db | Tx, event: SecurityEventRecord): Promise<void> {
  await securityEventInsert(tx, event);
}

/** The account's security log, newest first. */
export async function listSecurityEvents(
  db: Db,
  userId: string,
  query: PageQuery,
): Promise<SecurityEventListResponse> {
  const rows = await db
    .select({ event: securityEvents, total: windowTotal })
    .from(securityEvents)
    .where(eq(securityEvents.user_id, userId))
    .orderBy(desc(securityEvents.created_at), desc(securityEvents.id))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  return pageFromRows(
    query,
    rows,
    ({ event }): SecurityEvent => ({
      id: event.id,
      kind: event.kind,
      method: event.method,
      factor: event.factor,
      ...describeUserAgent(event.user_agent),
      ip: event.ip,
      created_at: event.created_at.toISOString(),
    }),
    async () => {
      const [row] = await db
        .select({ n: count() })
        .from(securityEvents)
        .where(eq(securityEvents.user_id, userId));
      return row?.n ?? 0;
    },
  );
}
