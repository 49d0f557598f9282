// Run by support/app-server.ts right after the demo seed, with the server's environment and before
// the server starts: an organization whose subscription has lapsed (spec §4's gate), which the
// browser cannot make (the server's clock does not move during a run). Its owner and STAFF member
// are in support/demo.ts. Idempotent: does nothing when the owner exists.
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../apps/api/src/config.ts';
import { withMigratedDatabase } from '../../apps/api/src/db/open-cli.ts';
import { users } from '../../apps/api/src/db/schema/index.ts';
// Its type declarations (Fastify's plugins), for the API files the imports above bring in.
import type {} from '../../apps/api/src/app.ts';
import {
  addClientMember,
  addOrganizationMember,
  createClient,
  createOrganization,
  createSubscription,
  createUser,
} from '../../apps/api/src/seed/factories.ts';
import { LAPSED_ORGANIZATION, LAPSED_OWNER, LAPSED_STAFF, LAPSED_WORKSPACE } from './demo.ts';

const DAY_MS = 86_400_000;
const config = loadConfig();

await withMigratedDatabase(config, async ({ db }) => {
  const made = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${LAPSED_OWNER.email}`)
      .limit(1);
    if (existing) return false;
    const owner = await createUser(tx, {
      ...LAPSED_OWNER,
      first_name: 'Lapsed',
      last_name: 'Owner',
    });
    const org = await createOrganization(tx, {
      ownerId: owner.id,
      name: LAPSED_ORGANIZATION,
      plan: null,
    });
    // A Standard subscription that ended ten days ago: the renewals failed and it expired.
    const now = Date.now();
    await createSubscription(tx, {
      organizationId: org.id,
      plan: 'STANDARD',
      appProfile: config.appProfile,
      status: 'EXPIRED',
      isActive: false,
      periodStart: new Date(now - 40 * DAY_MS),
      expiresIn: new Date(now - 10 * DAY_MS),
      subscriberId: owner.id,
    });
    const workspace = await createClient(tx, {
      organizationId: org.id,
      ownerId: owner.id,
      name: LAPSED_WORKSPACE,
      appProfile: config.appProfile,
    });
    const staff = await createUser(tx, {
      ...LAPSED_STAFF,
      first_name: 'Stranded',
      last_name: 'Staff',
      can_create_client: false,
    });
    await addOrganizationMember(tx, { organizationId: org.id, userId: staff.id, role: 'STAFF' });
    await addClientMember(tx, { clientId: workspace.id, userId: staff.id, role: 'STAFF' });
    return true;
  });
  console.log(made ? 'Lapsed organization created.' : 'Lapsed organization already present.');
});
