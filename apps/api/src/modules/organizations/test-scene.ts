// Scenes shared by this module's tests: users signed in through the API, organizations, memberships
// and workspaces written by the factories.
import { eq } from 'drizzle-orm';
import { bearer, signIn, type TestApp } from '../../../test/support/app.ts';
import { clients } from '../../db/schema/index.ts';
import {
  addClientMember,
  addOrganizationMember,
  createClient,
  createOrganization,
  createUser,
  FACTORY_PASSWORD,
} from '../../seed/factories.ts';

export interface Person {
  id: string;
  email: string;
  token: string;
  headers: { authorization: string };
}

/**
 * One signed-in request, so the session cache holds the session as it does for every request of a
 * user after their first: what tests count (statements per request) is the request's own work.
 */
export async function holdSession(t: TestApp, token: string): Promise<void> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/v1/rest-auth/user/',
    headers: bearer(token),
  });
  if (res.statusCode !== 200) throw new Error(`the new session was refused: ${res.body}`);
}

/** A user made by the factory and signed in through the API. */
export async function person(
  t: TestApp,
  fields: Parameters<typeof createUser>[1] = {},
): Promise<Person> {
  const row = await createUser(t.ctx.db, fields);
  const token = await signIn(t, row.email, FACTORY_PASSWORD);
  await holdSession(t, token);
  return { id: row.id, email: row.email, token, headers: bearer(token) };
}

// A real 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const BOUNDARY = '----portolan-organizations-test';

/** Uploads an image as `who` through POST /v1/upload/ and returns its URL. */
export async function uploadImage(t: TestApp, who: Person): Promise<string> {
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    PNG,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/upload/',
    headers: { ...who.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: body,
  });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`upload: ${res.body}`);
  return res.json().url as string;
}

/**
 * One organization with a member of each role, a stranger in an organization of their own, and
 * workspaces that exercise every rule of who sees what:
 * - `north` (active): the owner is its OWNER; staff STAFF, client CLIENT, manager MANAGER, and
 *   `pending` (whose organization invitation is still pending) CLIENT;
 * - `alpha` (active, lower-case name, its module switched off): only the owner; staff's membership
 *   of it is still PENDING;
 * - `staffDraft` (waiting for approval) created by staff; `adminDraft` created by the admin;
 * - `mapOnly`: a workspace with no module of the transit profile (never listed);
 * - `deleted`: soft-deleted (never listed); `elsewhere`: the stranger's.
 */
export async function tenantScene(t: TestApp) {
  const db = t.ctx.db;
  const [owner, admin, staff, client, manager, pending, stranger] = await Promise.all(
    ['owner', 'admin', 'staff', 'client', 'manager', 'pending', 'stranger'].map(() => person(t)),
  );
  const org = await createOrganization(db, { ownerId: owner!.id, name: 'Acme Freight' });
  const organizationId = org.id;
  for (const [who, role] of [
    [admin, 'ADMIN'],
    [staff, 'STAFF'],
    [client, 'CLIENT'],
    [manager, 'CLIENT'],
  ] as const) {
    await addOrganizationMember(db, { organizationId, userId: who!.id, role });
  }
  await addOrganizationMember(db, {
    organizationId,
    userId: pending!.id,
    role: 'CLIENT',
    status: 'PENDING',
  });
  const otherOrg = await createOrganization(db, { ownerId: stranger!.id, name: 'Other Co' });

  const north = await createClient(db, { organizationId, ownerId: owner!.id, name: 'North' });
  for (const [who, role] of [
    [staff, 'STAFF'],
    [client, 'CLIENT'],
    [manager, 'MANAGER'],
    [pending, 'CLIENT'],
  ] as const) {
    await addClientMember(db, { clientId: north.id, userId: who!.id, role });
  }
  const alpha = await createClient(db, {
    organizationId,
    ownerId: owner!.id,
    name: 'alpha lane',
    enabledModules: [],
  });
  await addClientMember(db, {
    clientId: alpha.id,
    userId: staff!.id,
    role: 'STAFF',
    status: 'PENDING',
  });
  const staffDraft = await createClient(db, {
    organizationId,
    ownerId: staff!.id,
    name: 'Pending by staff',
    active: false,
  });
  const adminDraft = await createClient(db, {
    organizationId,
    ownerId: admin!.id,
    name: 'Pending by admin',
    active: false,
  });
  const mapOnly = await createClient(db, {
    organizationId,
    ownerId: owner!.id,
    name: 'Map only',
    appProfile: 'mwrw',
  });
  await addClientMember(db, { clientId: mapOnly.id, userId: staff!.id, role: 'STAFF' });
  const deleted = await createClient(db, { organizationId, ownerId: owner!.id, name: 'Gone' });
  await addClientMember(db, { clientId: deleted.id, userId: staff!.id, role: 'STAFF' });
  await db.update(clients).set({ deleted_at: new Date() }).where(eq(clients.id, deleted.id));
  const elsewhere = await createClient(db, {
    organizationId: otherOrg.id,
    ownerId: stranger!.id,
    name: 'Elsewhere',
  });

  return {
    people: { owner: owner!, admin: admin!, staff: staff!, client: client!, manager: manager! },
    pending: pending!,
    stranger: stranger!,
    org,
    otherOrg,
    clients: { north, alpha, staffDraft, adminDraft, mapOnly, deleted, elsewhere },
  };
}
export type TenantScene = Awaited<ReturnType<typeof tenantScene>>;
