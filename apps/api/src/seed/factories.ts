import {
  APP_PROFILES,
  type AppProfile,
  type InvoiceKind,
  type MembershipStatus,
  type ModuleCode,
  type OrgRole,
  type PlanLimits,
  type PlanType,
  type Role,
  type SubscriptionStatus,
} from '@portolan/contract';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import {
  clientMembers,
  clientModules,
  clients,
  organizationMembers,
  organizations,
  paymentMethods,
  plans,
  subscriptions,
  users,
} from '../db/schema/index.ts';
import { hashPassword } from '../modules/auth/index.ts';
import { recordInvoice } from '../modules/billing/index.ts';

/**
 * Factories of the records a test or the demo seed starts from. They write rows as the services
 * would leave them, so tests of one module can set the scene without going through every other
 * module's API. Each takes the database (or a transaction) and returns the row it made.
 */

type Conn = Db | Tx;
let sequence = 0;
const unique = (prefix: string) =>
  `${prefix}.${Date.now().toString(36)}.${(sequence++).toString(36)}`;

export const FACTORY_PASSWORD = 'Correct horse battery 42';

/**
 * Each distinct password is hashed once per process (full argon2id, about 50 ms on the 2-core CI
 * machine) and the hash reused for every user made with it: a test file makes dozens of users,
 * and what it proves never depends on their salts differing. Signing in still verifies for real;
 * hashPassword itself is untouched.
 */
const hashes = new Map<string, Promise<string>>();
function factoryHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
    // A failed hash is not kept: the next user tries again.
    hash.catch(() => hashes.delete(password));
  }
  return hash;
}

export async function createUser(
  db: Conn,
  fields: {
    email?: string;
    password?: string | null;
    first_name?: string;
    last_name?: string;
    can_create_client?: boolean;
    /** An account not yet activated when false. */
    active?: boolean;
  } = {},
) {
  const password = fields.password === undefined ? FACTORY_PASSWORD : fields.password;
  const [row] = await db
    .insert(users)
    .values({
      email: fields.email ?? `${unique('user')}@example.com`,
      password_hash: password === null ? null : await factoryHash(password),
      first_name: fields.first_name ?? 'Test',
      last_name: fields.last_name ?? 'User',
      can_create_client: fields.can_create_client ?? true,
      email_verified_at: fields.active === false ? null : new Date(),
    })
    .returning();
  return row!;
}

export async function addOrganizationMember(
  db: Conn,
  fields: { organizationId: string; userId: string; role: OrgRole; status?: MembershipStatus },
) {
  const [row] = await db
    .insert(organizationMembers)
    .values({
      organization_id: fields.organizationId,
      user_id: fields.userId,
      role: fields.role,
      status: fields.status ?? 'MEMBER',
    })
    .returning();
  return row!;
}

/**
 * An organization and its OWNER's membership, with an active subscription: by default the CUSTOM
 * plan (unlimited, as arranged with sales), so tests of other modules never meet a plan limit.
 * `plan: null` leaves it without one (billing tests, the subscription gate).
 */
export async function createOrganization(
  db: Conn,
  fields: { ownerId: string; name?: string; plan?: PlanType | null },
) {
  const [org] = await db
    .insert(organizations)
    .values({ name: fields.name ?? unique('Organization'), owner_id: fields.ownerId })
    .returning();
  await addOrganizationMember(db, {
    organizationId: org!.id,
    userId: fields.ownerId,
    role: 'OWNER',
  });
  const plan = fields.plan === undefined ? 'CUSTOM' : fields.plan;
  if (plan)
    await createSubscription(db, { organizationId: org!.id, plan, subscriberId: fields.ownerId });
  return org!;
}

/**
 * An organization's subscription to a plan of the app profile, as a paid checkout leaves it:
 * ACTIVE for a month from now, limits copied from the plan (or as given).
 */
export async function createSubscription(
  db: Conn,
  fields: {
    organizationId: string;
    plan: PlanType;
    appProfile?: AppProfile;
    status?: SubscriptionStatus;
    isActive?: boolean;
    periodStart?: Date;
    expiresIn?: Date;
    limits?: Partial<PlanLimits>;
    subscriberId?: string | null;
    defaultPaymentMethodId?: string | null;
  },
) {
  const app = fields.appProfile ?? 'transit';
  const [plan] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.app_profile, app), eq(plans.type, fields.plan)));
  if (!plan) throw new Error(`no ${fields.plan} plan for ${app}`);
  const start = fields.periodStart ?? new Date();
  const [row] = await db
    .insert(subscriptions)
    .values({
      organization_id: fields.organizationId,
      app_profile: app,
      plan_id: plan.id,
      status: fields.status ?? 'ACTIVE',
      is_active: fields.isActive ?? true,
      amount: plan.price,
      currency: plan.currency,
      current_period_start: start,
      expired_in: fields.expiresIn ?? new Date(start.getTime() + 30 * 86_400_000),
      subscriber_id: fields.subscriberId ?? null,
      default_payment_method_id: fields.defaultPaymentMethodId ?? null,
      limits: { ...plan.config, ...fields.limits },
    })
    .returning();
  return row!;
}

export async function addClientMember(
  db: Conn,
  fields: { clientId: string; userId: string; role: Role; status?: MembershipStatus },
) {
  const [row] = await db
    .insert(clientMembers)
    .values({
      client_id: fields.clientId,
      user_id: fields.userId,
      role: fields.role,
      status: fields.status ?? 'MEMBER',
    })
    .returning();
  return row!;
}

/**
 * A workspace with one module row per module of the app profile (enabled unless said otherwise)
 * and, when an owner is given, the owner's OWNER membership.
 */
export async function createClient(
  db: Conn,
  fields: {
    organizationId: string;
    ownerId?: string;
    name?: string;
    active?: boolean;
    appProfile?: AppProfile;
    enabledModules?: readonly ModuleCode[];
  },
) {
  const [client] = await db
    .insert(clients)
    .values({
      organization_id: fields.organizationId,
      name: fields.name ?? unique('Workspace'),
      owner_id: fields.ownerId ?? null,
      active: fields.active ?? true,
    })
    .returning();
  const modules = APP_PROFILES[fields.appProfile ?? 'transit'];
  const enabled = fields.enabledModules ?? modules;
  await db.insert(clientModules).values(
    modules.map((module) => ({
      client_id: client!.id,
      module,
      enabled: enabled.includes(module),
    })),
  );
  if (fields.ownerId)
    await addClientMember(db, { clientId: client!.id, userId: fields.ownerId, role: 'OWNER' });
  return client!;
}

/**
 * A card kept for an organization, as the sandbox gateway leaves one after a checkout: a token
 * whose charges succeed (`pm_sandbox_ok_…`), brand, last 4 and expiry. Never a number.
 */
export async function createPaymentMethod(
  db: Conn,
  fields: {
    organizationId: string;
    brand?: 'visa' | 'mastercard' | 'amex';
    last4?: string;
    expMonth?: number;
    expYear?: number;
    outcome?: 'ok' | 'declined' | 'insufficient_funds';
  },
) {
  const [row] = await db
    .insert(paymentMethods)
    .values({
      organization_id: fields.organizationId,
      gateway_ref: `pm_sandbox_${fields.outcome ?? 'ok'}_${randomBytes(8).toString('hex')}`,
      brand: fields.brand ?? 'visa',
      last4: fields.last4 ?? '4242',
      exp_month: fields.expMonth ?? 12,
      exp_year: fields.expYear ?? new Date().getUTCFullYear() + 4,
    })
    .returning();
  return row!;
}

/** A paid invoice of a subscription (what a successful checkout records). */
export async function createInvoice(
  db: Conn,
  fields: {
    organizationId: string;
    subscriptionId: string | null;
    amount: number;
    description: string;
    kind?: InvoiceKind;
  },
) {
  // Numbered the way a payment numbers it: the organization's next number.
  const row = await db.transaction((tx) =>
    recordInvoice(tx, {
      organizationId: fields.organizationId,
      subscriptionId: fields.subscriptionId,
      kind: fields.kind ?? 'SUBSCRIPTION',
      status: 'PAID',
      amount: fields.amount,
      currency: 'usd',
      description: fields.description,
      lines: [{ description: fields.description, amount: fields.amount }],
      gatewayRef: `ch_sandbox_${randomBytes(8).toString('hex')}`,
      at: new Date(),
    }),
  );
  return row!;
}
