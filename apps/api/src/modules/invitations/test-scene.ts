// Shared by this module's tests: an organization with a member of each role and a workspace, and
// helpers to invite, read the e-mailed token and accept.
import { and, count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { InvitationKind } from '@portolan/contract';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person } from '../../../test/support/tenants.ts';
import {
  clientMembers,
  invitations,
  mailOutbox,
  notifications,
  organizationMembers,
  users,
} from '../../db/schema/index.ts';
import { addClientMember, addOrganizationMember, createClient } from '../../seed/factories.ts';

export const ACCEPT_PATH: Record<InvitationKind, string> = {
  organization: '/v1/organizations/users/invitation/accept/',
  client: '/v1/clients/users/invitation/accept/',
};

/**
 * The tenant scene of test/support/tenants.ts, plus a workspace `north` (the owner its OWNER, a
 * workspace MANAGER and a workspace STAFF, both external members of the organization), and an
 * inactive workspace waiting for approval.
 */
export async function invitationScene(t: TestApp) {
  const s = await createTenantScene(t);
  const db = t.ctx.db;
  const north = await createClient(db, {
    organizationId: s.orgId,
    ownerId: s.people.OWNER.id,
    name: 'North',
  });
  const waiting = await createClient(db, { organizationId: s.orgId, active: false });
  const inWorkspace = async (role: 'MANAGER' | 'STAFF'): Promise<Person> => {
    const p = await s.person({ first_name: `Ws${role}` });
    await addOrganizationMember(db, { organizationId: s.orgId, userId: p.id, role: 'CLIENT' });
    await addClientMember(db, { clientId: north.id, userId: p.id, role });
    return p;
  };
  const wsManager = await inWorkspace('MANAGER');
  const wsStaff = await inWorkspace('STAFF');
  const orgUrl = (path: string) => `/v1/organizations/${s.orgId}/users/${path}`;
  const clientUrl = (path: string) => `/v1/clients/${north.id}/users/${path}`;
  return { ...s, north, waiting, wsManager, wsStaff, orgUrl, clientUrl };
}
export type InvitationScene = Awaited<ReturnType<typeof invitationScene>>;

/** A test app of its own with the invitation scene in it. */
export async function startInvitationScene(): Promise<{ t: TestApp; s: InvitationScene }> {
  const t = await createTestApp();
  return { t, s: await invitationScene(t) };
}

let sequence = 0;
/** An e-mail nobody has used, mixed case on purpose (e-mails compare case-insensitively). */
export const freshEmail = (label = 'invitee') =>
  `${label}.${Date.now().toString(36)}.${(sequence++).toString(36)}@Example.com`;

/** The token of the newest invitation link e-mailed to this address. */
export async function tokenFromMail(t: TestApp, email: string): Promise<string> {
  const mail = await t.mailTo(email);
  const match = /\/ps\/(?:organizations|clients)\/invitation\?token=([A-Za-z0-9_-]+)/.exec(
    mail.text,
  );
  if (!match) throw new Error(`no invitation link in: ${mail.text}`);
  return match[1]!;
}

/** Accepts through the API, optionally signed in, from an address of its own (rate limits). */
export function accept(
  t: TestApp,
  kind: InvitationKind,
  body: Record<string, unknown>,
  options: { token?: string; from?: string } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: ACCEPT_PATH[kind],
    payload: body,
    headers: options.token ? bearer(options.token) : {},
    remoteAddress: options.from ?? '10.88.0.1',
  });
}

export async function userByEmail(t: TestApp, email: string) {
  const rows = await t.ctx.db.select().from(users);
  return rows.find((u) => u.email.toLowerCase() === email.trim().toLowerCase());
}

export async function orgMembership(t: TestApp, organizationId: string, userId: string) {
  const [row] = await t.ctx.db
    .select()
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organization_id, organizationId),
        eq(organizationMembers.user_id, userId),
      ),
    );
  return row;
}

export async function clientMembership(t: TestApp, clientId: string, userId: string) {
  const [row] = await t.ctx.db
    .select()
    .from(clientMembers)
    .where(and(eq(clientMembers.client_id, clientId), eq(clientMembers.user_id, userId)));
  return row;
}

export async function invitationsOf(t: TestApp, userId: string) {
  return t.ctx.db.select().from(invitations).where(eq(invitations.user_id, userId));
}

export async function notificationsOf(t: TestApp, userId: string) {
  return t.ctx.db.select().from(notifications).where(eq(notifications.recipient_id, userId));
}

/** How many rows the tables an invitation writes hold: to show a refused request wrote nothing. */
export async function writtenRows(t: TestApp) {
  const db = t.ctx.db;
  const n = async (table: PgTable) => (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    users: await n(users),
    organizationMembers: await n(organizationMembers),
    clientMembers: await n(clientMembers),
    invitations: await n(invitations),
    notifications: await n(notifications),
    mail: await n(mailOutbox),
  };
}

/** The error body of a refused request: its status, code and (for 400) the fields named. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code: string,
  field?: string,
) {
  expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
  if (field) {
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  }
}
