import { APP_PROFILES, type AppProfile, type OrgRole, type Role } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  clientMembers,
  clientModules,
  clients,
  notifications,
  organizationMembers,
  organizations,
  users,
} from '../db/schema/index.ts';
import { createOrganization, createUser } from './factories.ts';

export const BENCH_TENANT = {
  email: 'bench-tenant@example.com',
  password: 'Bench tenant passphrase 1',
};

/** The caller's role in the i-th organization: a mix, so every rule of who sees what runs. */
const ROLE_CYCLE: OrgRole[] = ['OWNER', 'ADMIN', 'STAFF', 'CLIENT'];

/**
 * The data of `npm run bench` for GET /v1/me/organizations/and/clients/: one user in
 * `organizations` organizations of `workspaces` workspaces each, written in a few bulk inserts.
 * The user is OWNER, ADMIN, STAFF or CLIENT in turn; where not OWNER or ADMIN they belong to
 * most workspaces (each organization also has one waiting for approval, and one they are not in).
 * Each organization has an owner of its own and another member, so the tables are not the
 * user's alone.
 */
export async function seedBenchTenants(
  db: Db,
  options: { organizations: number; workspaces: number; appProfile: AppProfile },
): Promise<{ email: string; password: string }> {
  return db.transaction(async (tx) => {
    const user = await createUser(tx, { ...BENCH_TENANT, can_create_client: true });
    const others = await Promise.all(
      ['owner', 'member'].map((who) =>
        createUser(tx, { email: `bench-${who}@example.com`, password: null }),
      ),
    );
    const [owner, member] = others as [(typeof others)[0], (typeof others)[0]];
    const orgRows = await tx
      .insert(organizations)
      .values(
        Array.from({ length: options.organizations }, (_, i) => ({
          // Mixed case, so the case-insensitive sort has work to do.
          name: `${i % 3 ? 'Organization' : 'organization'} ${String(i).padStart(4, '0')}`,
          owner_id: owner.id,
        })),
      )
      .returning({ id: organizations.id });
    const roleOf = (i: number) => ROLE_CYCLE[i % ROLE_CYCLE.length]!;
    await tx
      .insert(organizationMembers)
      .values(
        orgRows.flatMap((org, i) => [
          { organization_id: org.id, user_id: user.id, role: roleOf(i) },
          ...(roleOf(i) === 'OWNER'
            ? []
            : [{ organization_id: org.id, user_id: owner.id, role: 'OWNER' as const }]),
          { organization_id: org.id, user_id: member.id, role: 'STAFF' as const },
        ]),
      );
    const clientRows = await tx
      .insert(clients)
      .values(
        orgRows.flatMap((org) =>
          Array.from({ length: options.workspaces }, (_, j) => ({
            organization_id: org.id,
            name: `Workspace ${String(j).padStart(3, '0')}`,
            owner_id: owner.id,
            // The last one waits for approval.
            active: j < options.workspaces - 1,
          })),
        ),
      )
      .returning({ id: clients.id, organization_id: clients.organization_id });
    const modules = APP_PROFILES[options.appProfile];
    await tx
      .insert(clientModules)
      .values(
        clientRows.flatMap((c) =>
          modules.map((module) => ({ client_id: c.id, module, enabled: true })),
        ),
      );
    const orgIndex = new Map(orgRows.map((org, i) => [org.id, i]));
    const memberships: { client_id: string; user_id: string; role: Role }[] = [];
    clientRows.forEach((c, k) => {
      const j = k % options.workspaces;
      memberships.push({ client_id: c.id, user_id: owner.id, role: 'OWNER' });
      memberships.push({ client_id: c.id, user_id: member.id, role: 'STAFF' });
      const role = roleOf(orgIndex.get(c.organization_id)!);
      // STAFF and CLIENT belong to every workspace but the first.
      if ((role === 'STAFF' || role === 'CLIENT') && j > 0) {
        memberships.push({
          client_id: c.id,
          user_id: user.id,
          role: role === 'STAFF' ? 'STAFF' : 'CLIENT',
        });
      }
    });
    for (let i = 0; i < memberships.length; i += 5_000) {
      await tx.insert(clientMembers).values(memberships.slice(i, i + 5_000));
    }
    // The bell's count has rows to count: some seen, some not, one deleted, another user's too.
    await tx.insert(notifications).values(
      Array.from({ length: BENCH_NOTIFICATIONS }, (_, i) => ({
        type: 'WARNING' as const,
        recipient_id: i % 10 === 9 ? member.id : user.id,
        organization_id: orgRows[i % orgRows.length]!.id,
        is_seen: i % 3 === 0,
        deleted_at: i === 1 ? new Date() : null,
        extra_message: `Bench notice ${i}`,
      })),
    );
    return BENCH_TENANT;
  });
}

/** Notifications of the bench tenant's bell (and a few of another user's). */
const BENCH_NOTIFICATIONS = 40;

/** The password of every sign-in account of the bench (`bench-signin-<i>@example.com`). */
export const BENCH_SIGN_IN_PASSWORD = 'Bench sign-in passphrase 1';
export const benchSignInEmail = (i: number) => `bench-signin-${i}@example.com`;

/**
 * The accounts the sign-in load of `npm run bench` spreads over, so that no account has more
 * attempts in flight than the per-account lockout allows (requests in flight hold a reservation).
 * One argon2id hash at our parameters, shared: a salt of its own per row would cost the seed a
 * hash each and change nothing a verification does.
 */
export async function seedBenchSignIns(db: Db, count: number) {
  const first = await createUser(db, {
    email: benchSignInEmail(0),
    password: BENCH_SIGN_IN_PASSWORD,
  });
  if (count > 1) {
    await db.insert(users).values(
      Array.from({ length: count - 1 }, (_, i) => ({
        email: benchSignInEmail(i + 1),
        password_hash: first.password_hash,
        first_name: 'Bench',
        last_name: `Sign-in ${i + 1}`,
        email_verified_at: new Date(),
      })),
    );
  }
  return {
    emails: Array.from({ length: count }, (_, i) => benchSignInEmail(i)),
    password: BENCH_SIGN_IN_PASSWORD,
  };
}

/**
 * The data of `npm run bench:export`: the bench tenant owns one organization with `count`
 * activities of varied actions, a second apart, written by the database itself (generate_series,
 * in slices of 25,000, each well inside the statement timeout on a busy machine) rather than
 * shipped through the client.
 */
export async function seedExportActivities(
  db: Db,
  count: number,
): Promise<{ email: string; password: string; organizationId: string }> {
  const user = await createUser(db, { ...BENCH_TENANT, can_create_client: true });
  const org = await createOrganization(db, { ownerId: user.id, name: 'Audit Export Bench' });
  for (let from = 0; from < count; from += 25_000) {
    const to = Math.min(count, from + 25_000);
    await db.execute(sql`
      insert into activities (user_id, action, object_type, object_id, organization_id, data, created_at, modified_at)
      select ${user.id}::uuid,
             (array['SIGN_IN', 'ACCESS_WORKSPACE', 'UPDATE_WORKSPACE', 'ADD_MEMBER'])[1 + g % 4],
             'client', gen_random_uuid(), ${org.id}::uuid,
             jsonb_build_object('app_profile', 'transit', 'client_name', 'Workspace ' || (g % 50), 'module', 'MAP'),
             timestamptz '2026-01-01 00:00:00+00' + make_interval(secs => g),
             now()
      from generate_series(${from + 1}::int, ${to}::int) g`);
  }
  return { ...BENCH_TENANT, organizationId: org.id };
}
