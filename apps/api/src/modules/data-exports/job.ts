import path from 'node:path';
import { DATA_EXPORT_MAX_ATTEMPTS, DATA_EXPORT_TTL_HOURS } from '@portolan/contract';
import { and, asc, eq, isNull, lte, notInArray, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { dataExports } from '../../db/schema/index.ts';
import { hours, minutes } from '../../lib/clock.ts';
import { enqueueMail } from '../../lib/mail/outbox.ts';
import { dataExportFailedMail } from '../../lib/mail/templates.ts';
import { s3ClientFor } from '../../lib/s3/client.ts';
import { fileStorageFor, type FileStorage } from '../uploads/index.ts';
import { createLocalArchiveStore, newArchiveKey, type ArchiveStore } from './archive-store.ts';
import { createS3ArchiveStore } from './s3-archive-store.ts';
import {
  assertMayBuild,
  describeExport,
  ExportRefused,
  recordReady,
  type ExportSubject,
} from './finish.ts';
import { ORGANIZATION_README, USER_README, writeArchive } from './layout.ts';
import { sweepArchives } from './sweep.ts';
import type { DataExportRow } from './service.ts';
import { ZipWriter } from './zip-writer.ts';

/**
 * The data export job, one per instance (like the mail outbox and the renewals): it takes a
 * PENDING export — or a RUNNING one whose lease ran out (its builder crashed) — with FOR UPDATE
 * SKIP LOCKED, so two instances never build the same one, holds it under a lease it renews while
 * building, writes the archive to the export store, and records it READY with the e-mail in one
 * transaction. A build is tried DATA_EXPORT_MAX_ATTEMPTS times; then the export is FAILED and its
 * requester told. Archives past their 24 hours are deleted here too.
 */

export type JobContext = Pick<AppContext, 'db' | 'clock' | 'config' | 'mail' | 'outbox'>;

export interface ExportDeps {
  store: ArchiveStore;
  /** The uploads' storage: a user's uploaded files go into their archive. */
  uploads: FileStorage;
  log?: FastifyBaseLogger;
  /** Aborts a build in progress (app shutdown): the export is handed back, no attempt spent. */
  signal?: AbortSignal;
}

/** How long a claim holds an export without being renewed. */
export const LEASE_MS = minutes(10);
/** How often a build in progress renews its lease (real time). */
const HEARTBEAT_MS = minutes(2);
/** A failed build is tried again after this, times the attempts made. */
export const RETRY_DELAY_MS = minutes(1);
/** A stored archive no export names, this old, is a crashed build's leftover. */
const ORPHAN_AGE_MS = LEASE_MS * 2;

/**
 * Archives live on the S3 store of STORAGE_URL when there is one, else in DATA_DIR/exports; the
 * uploads they copy wherever the uploads module keeps them.
 */
export const archiveStoreFor = (config: Pick<AppConfig, 'dataDir' | 'storage'>) =>
  config.storage
    ? createS3ArchiveStore(s3ClientFor(config.storage))
    : createLocalArchiveStore(path.join(config.dataDir, 'exports'));

export const exportDepsFor = (config: Pick<AppConfig, 'dataDir' | 'storage'>): ExportDeps => ({
  store: archiveStoreFor(config),
  uploads: fileStorageFor(config),
});

/** Something to build: the claimed row (attempts counted), or one whose attempts ran out. */
type Claim = { row: DataExportRow; exhausted: boolean };

async function claim(ctx: JobContext, seen: string[]): Promise<Claim | null> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(dataExports)
      .where(
        and(
          or(
            and(
              eq(dataExports.status, 'PENDING'),
              or(isNull(dataExports.locked_until), lte(dataExports.locked_until, now)),
            ),
            and(eq(dataExports.status, 'RUNNING'), lte(dataExports.locked_until, now)),
          ),
          seen.length ? notInArray(dataExports.id, seen) : undefined,
        ),
      )
      .orderBy(asc(dataExports.created_at))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return null;
    if (row.attempts >= DATA_EXPORT_MAX_ATTEMPTS) {
      await failFinally(
        ctx,
        tx,
        row,
        `The export could not be built in ${DATA_EXPORT_MAX_ATTEMPTS} attempts. Please ask for a new one.`,
      );
      return { row, exhausted: true };
    }
    const [taken] = await tx
      .update(dataExports)
      .set({
        status: 'RUNNING',
        attempts: row.attempts + 1,
        locked_until: new Date(now.getTime() + LEASE_MS),
        error: null,
        modified_at: now,
      })
      .where(eq(dataExports.id, row.id))
      .returning();
    return { row: taken!, exhausted: false };
  });
}

/** Only the holder of this attempt may change the row (a lost lease changes nothing). */
const heldBy = (row: DataExportRow) =>
  and(
    eq(dataExports.id, row.id),
    eq(dataExports.status, 'RUNNING'),
    eq(dataExports.attempts, row.attempts),
  );

const settingsPathOf = (row: DataExportRow) =>
  row.kind === 'USER'
    ? '/ps/profile'
    : `/ps/organization-settings/${row.organization_id}/data-export`;

/** FAILED for good, with a word to the requester (when there is someone to tell). */
async function failFinally(
  ctx: JobContext,
  tx: Tx,
  row: DataExportRow,
  message: string,
): Promise<void> {
  const now = ctx.clock.now();
  await tx
    .update(dataExports)
    .set({
      status: 'FAILED',
      error: message,
      locked_until: null,
      completed_at: now,
      modified_at: now,
    })
    .where(eq(dataExports.id, row.id));
  const who = await describeExport(tx, row).catch(() => null);
  if (who?.enabled) {
    await enqueueMail(
      tx,
      ctx.clock,
      dataExportFailedMail(ctx.mail, who.email, who.firstName, {
        subject: who.mailSubject,
        settingsPath: settingsPathOf(row),
      }),
    );
  }
}

/** Renews the lease every HEARTBEAT_MS while a build runs; returns the stop. */
function heartbeat(ctx: JobContext, row: DataExportRow): () => void {
  const timer = setInterval(() => {
    ctx.db
      .update(dataExports)
      .set({ locked_until: new Date(ctx.clock.now().getTime() + LEASE_MS) })
      .where(heldBy(row))
      .catch(() => {});
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** yyyy-mm-dd-named archive: portolan-my-data-… or portolan-<organization>-data-…. */
function fileNameOf(brand: string, subject: ExportSubject, at: Date): string {
  const slug = (s: string, fallback: string) =>
    s
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^a-zA-Z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 40) || fallback;
  const what =
    subject.mailSubject.kind === 'user' ? 'my' : slug(subject.mailSubject.name, 'organization');
  return `${slug(brand, 'portal')}-${what}-data-${at.toISOString().slice(0, 10)}.zip`;
}

async function build(ctx: JobContext, deps: ExportDeps, row: DataExportRow): Promise<void> {
  const key = newArchiveKey();
  const stop = heartbeat(ctx, row);
  try {
    const subject = await describeExport(ctx.db, row);
    await assertMayBuild(ctx.db, row, subject);
    const at = ctx.clock.now();
    const size = await deps.store.create(key, async (write) => {
      const zip = new ZipWriter(async (chunk) => {
        if (deps.signal?.aborted) throw new Error('the app is shutting down');
        await write(chunk);
      }, at);
      const input = { db: ctx.db, at, files: deps.uploads };
      if (row.kind === 'USER') {
        const readme = USER_README(ctx.config.brand, subject.email, at);
        await writeArchive('USER', zip, { ...input, id: row.user_id }, readme);
      } else {
        const name = subject.mailSubject.kind === 'organization' ? subject.mailSubject.name : '';
        const readme = ORGANIZATION_README(ctx.config.brand, name, at);
        await writeArchive('ORGANIZATION', zip, { ...input, id: row.organization_id! }, readme);
      }
      await zip.end();
    });
    const recorded = await recordReady(ctx, row, heldBy(row), {
      key,
      size,
      fileName: fileNameOf(ctx.config.brand, subject, at),
      subject,
      settingsPath: settingsPathOf(row),
      ttlMs: hours(DATA_EXPORT_TTL_HOURS),
    });
    // Another instance took the export over meanwhile (this lease ran out): its archive counts.
    if (!recorded) await deps.store.delete(key);
  } catch (err) {
    await deps.store.delete(key).catch(() => {});
    await afterFailure(ctx, deps, row, err);
  } finally {
    stop();
  }
}

/** A build failed: handed back (shutdown), tried again later, or FAILED for good. */
async function afterFailure(
  ctx: JobContext,
  deps: ExportDeps,
  row: DataExportRow,
  err: unknown,
): Promise<void> {
  const now = ctx.clock.now();
  if (deps.signal?.aborted) {
    await ctx.db
      .update(dataExports)
      .set({ status: 'PENDING', attempts: row.attempts - 1, locked_until: null, modified_at: now })
      .where(heldBy(row));
    return;
  }
  const refused = err instanceof ExportRefused;
  if (!refused) deps.log?.error({ err, exportId: row.id }, 'data export build failed');
  await ctx.db.transaction(async (tx) => {
    const [held] = await tx.select().from(dataExports).where(heldBy(row)).for('update');
    if (!held) return;
    if (refused || row.attempts >= DATA_EXPORT_MAX_ATTEMPTS) {
      const message =
        err instanceof ExportRefused
          ? err.message
          : 'The export could not be built. Please ask for a new one; if it fails again, write to support.';
      await failFinally(ctx, tx, row, message);
      return;
    }
    await tx
      .update(dataExports)
      .set({
        status: 'PENDING',
        locked_until: new Date(now.getTime() + RETRY_DELAY_MS * row.attempts),
        modified_at: now,
      })
      .where(eq(dataExports.id, row.id));
  });
  ctx.outbox.kick();
}

/**
 * One run: the sweep, then every export due now, one after another, each claimed on its own.
 * Returns how many exports it handled (built, retried later or failed).
 */
export async function runDataExports(ctx: JobContext, deps: ExportDeps): Promise<number> {
  await sweepArchives(ctx, deps.store, ORPHAN_AGE_MS);
  const seen: string[] = [];
  while (!deps.signal?.aborted) {
    const next = await claim(ctx, seen);
    if (!next) break;
    seen.push(next.row.id);
    if (next.exhausted) ctx.outbox.kick();
    else await build(ctx, deps, next.row);
  }
  return seen.length;
}
