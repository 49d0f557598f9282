import crypto from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { dataExports, organizations, users } from '../../db/schema/index.ts';
import { enqueueMail } from '../../lib/mail/outbox.ts';
import {
  dataExportReadyMail,
  type ExportSubject as MailSubject,
} from '../../lib/mail/templates.ts';
import { decideTenant } from '../access/index.ts';
import { hashToken, type DataExportRow } from './service.ts';

/** A build refused for good (no retry): the message is for the requester. */
export class ExportRefused extends Error {}

/** Who asked for an export and what it is of, as its archive and mails need them. */
export interface ExportSubject {
  email: string;
  firstName: string;
  /** False for a disabled or deleted account: nothing is built or mailed for it. */
  enabled: boolean;
  mailSubject: MailSubject;
}

/**
 * The export's requester and subject. Refuses (ExportRefused) an export whose requester's account
 * is disabled or deleted, or who may no longer export the organization.
 */
export async function describeExport(db: Db | Tx, row: DataExportRow): Promise<ExportSubject> {
  const [user] = await db.select().from(users).where(eq(users.id, row.user_id));
  if (!user) throw new ExportRefused('The account that asked for this export is gone.');
  const enabled = user.enabled && user.deleted_at === null;
  const base = { email: user.email, firstName: user.first_name, enabled };
  if (!enabled) return { ...base, mailSubject: { kind: 'user' } };
  if (row.kind === 'USER') return { ...base, mailSubject: { kind: 'user' } };
  const [org] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, row.organization_id!));
  return { ...base, mailSubject: { kind: 'organization', name: org?.name ?? 'the organization' } };
}

/** Throws ExportRefused when the export may not be built (any more). */
export async function assertMayBuild(
  db: Db | Tx,
  row: DataExportRow,
  subject: ExportSubject,
): Promise<void> {
  if (!subject.enabled) {
    throw new ExportRefused('The account that asked for this export is disabled.');
  }
  if (row.kind === 'ORGANIZATION') {
    const refused = () =>
      new ExportRefused(
        'You are no longer an owner of this organization, so its data was not exported.',
      );
    await decideTenant(
      db,
      { userId: row.user_id },
      { organizationId: row.organization_id! },
      'organization.data.export',
      { outside: refused, denied: refused },
    );
  }
}

/**
 * Records a built archive READY, with a fresh download token (only its SHA-256 kept) and the
 * e-mail carrying the link, in one transaction — only while `held` (this build's lease) still
 * matches. Returns false when it no longer does (another instance took the export over).
 */
export async function recordReady(
  ctx: Pick<AppContext, 'db' | 'clock' | 'mail' | 'config' | 'outbox'>,
  row: DataExportRow,
  held: SQL | undefined,
  archive: {
    key: string;
    size: number;
    fileName: string;
    subject: ExportSubject;
    settingsPath: string;
    ttlMs: number;
  },
): Promise<boolean> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + archive.ttlMs);
  const recorded = await ctx.db.transaction(async (tx) => {
    const [done] = await tx
      .update(dataExports)
      .set({
        status: 'READY',
        storage_key: archive.key,
        file_name: archive.fileName,
        size_bytes: archive.size,
        download_token_hash: hashToken(token),
        error: null,
        locked_until: null,
        completed_at: now,
        expires_at: expiresAt,
        modified_at: now,
      })
      .where(held)
      .returning({ id: dataExports.id });
    if (!done) return false;
    const base = ctx.config.publicUrl.replace(/\/+$/, '');
    await enqueueMail(
      tx,
      ctx.clock,
      dataExportReadyMail(ctx.mail, archive.subject.email, archive.subject.firstName, {
        subject: archive.subject.mailSubject,
        url: `${base}/v1/data-exports/download/${token}/`,
        expiresAt,
        settingsPath: archive.settingsPath,
      }),
    );
    return true;
  });
  if (recorded) ctx.outbox.kick();
  return recorded;
}
