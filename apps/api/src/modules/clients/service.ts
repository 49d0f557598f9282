import {
  APP_PROFILES,
  can,
  effectiveWorkspaceRole,
  ErrorCode,
  MODULE_CODES,
  MODULE_NAMES,
  type AppProfile,
  type Client,
  type ClientApplication,
  type ClientCreate,
  type ClientListQuery,
  type ClientModule,
  type ClientUpdate,
  type ModuleCode,
  type Paginated,
} from '@portolan/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { clientModules, clients } from '../../db/schema/index.ts';
import { badRequest, conflict, fieldError, notFound } from '../../lib/errors.ts';
import { type Actor, type AuthState, decideTenant, lockTenant } from '../access/index.ts';
import { ActivityAction } from '../activities/index.ts';
import { recordActivityWithEvents, type ChangeEvent } from '../events/index.ts';
import { grantWorkspaceAccess } from '../members/index.ts';
import { createNotification } from '../notifications/index.ts';
import { isOwnUploadUrl } from '../uploads/index.ts';
import { assertWorkspaceLimit } from './limits.ts';
import { checkManagerChange, withManagers } from './managers.ts';
import {
  isUniqueViolation,
  listModules,
  listOrganizationClients,
  organizationApprovers,
  toClientDto,
  toModuleDto,
  type ClientRow,
} from './repo.ts';

/** An actor on a workspace route: the access layer always sets the workspace there. */
type ClientActor = Actor & { client: ClientRow };
export const onClient = (actor: Actor): ClientActor => {
  if (!actor.client) throw new Error('a workspace route without a workspace in its access rule');
  return actor as ClientActor;
};

const nameTaken = () =>
  conflict(ErrorCode.NAME_TAKEN, 'A workspace of this organization already has this name.', [
    { field: 'name', message: 'A workspace of this organization already has this name.' },
  ]);

const roleOf = (actor: Actor) => effectiveWorkspaceRole(actor);

/** The locks a write of this workspace takes first (ARCHITECTURE.md "Lock order"). */
const tenantOf = (client: Pick<ClientRow, 'id' | 'organization_id'>) => ({
  organizationId: client.organization_id,
  clientId: client.id,
});

/** What the activity log keeps about a workspace. */
const workspaceData = (
  ctx: AppContext,
  client: ClientRow,
  extra: Record<string, unknown> = {},
) => ({
  app_profile: ctx.config.appProfile,
  client_id: client.id,
  client_name: client.name,
  ...extra,
});

/**
 * A change of the workspace in the organization's activity log (`activity`: what it adds to the
 * workspace's data there) and its events, in the change's transaction.
 */
async function recordWorkspaceChange(
  ctx: AppContext,
  tx: Tx,
  userId: string,
  client: ClientRow,
  action: ActivityAction,
  change: { activity?: Record<string, unknown>; events: readonly ChangeEvent[] },
) {
  await recordActivityWithEvents(
    tx,
    {
      userId,
      action,
      objectType: 'client',
      objectId: client.id,
      organizationId: client.organization_id,
      data: workspaceData(ctx, client, change.activity),
      at: ctx.clock.now(),
    },
    change.events,
  );
}

/** A logo must be one of the caller's own uploads (unless it is the one already set). */
async function checkLogo(ctx: AppContext, userId: string, logo: string | null | undefined) {
  if (logo && !(await isOwnUploadUrl(ctx.db, userId, logo))) {
    throw fieldError(
      'logo',
      'Upload the image first (POST /v1/upload/) and use the URL it returns.',
    );
  }
}

// ---- lists ------------------------------------------------------------------------------------

export async function listClients(
  ctx: AppContext,
  actor: Actor,
  query: ClientListQuery,
): Promise<Paginated<Client>> {
  const { count, results } = await listOrganizationClients(
    ctx.db,
    { userId: actor.userId, organizationId: actor.organization.id, orgRole: actor.orgRole! },
    APP_PROFILES[ctx.config.appProfile],
    query,
  );
  return {
    count,
    next: query.page * query.limit < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results,
  };
}

// ---- creation ---------------------------------------------------------------------------------

/**
 * Creates a workspace of the actor's organization. OWNERs and ADMINs create it active, with every
 * module of the app profile enabled, and the organization's OWNERs and ADMINs as its OWNERs;
 * STAFF create it pending (inactive, modules off) until an OWNER or ADMIN approves it. The creator
 * is its owner and an OWNER member. One transaction, under the organization's row lock (so the
 * plan's limit is counted race-free); a clash of names, even with a concurrent creation, is 409.
 */
export async function createClient(
  ctx: AppContext,
  actor: Pick<Actor, 'userId' | 'orgRole'> & { organization: { id: string } },
  input: ClientCreate,
): Promise<Client> {
  await checkLogo(ctx, actor.userId, input.logo);
  // Made by someone who approves workspaces: active at once; anyone else's waits for them.
  const active = can(actor, 'organization.clients.manage');
  const organizationId = actor.organization.id;
  const modules = APP_PROFILES[ctx.config.appProfile];
  const row = await ctx.db.transaction(async (tx) => {
    if (!(await lockTenant(tx, { organizationId }))) throw notFound();
    await assertWorkspaceLimit(ctx, tx, organizationId);
    // DO NOTHING on the live-name index: a clash answers no row instead of aborting.
    const [created] = await tx
      .insert(clients)
      .values({
        organization_id: organizationId,
        name: input.name,
        logo: input.logo ?? null,
        active,
        owner_id: actor.userId,
      })
      .onConflictDoNothing()
      .returning();
    if (!created) throw nameTaken();
    await tx
      .insert(clientModules)
      .values(modules.map((module) => ({ client_id: created.id, module, enabled: active })));
    await grantWorkspaceAccess(tx, created, {
      organizationAdmins: active,
      userIds: [actor.userId],
    });
    await recordWorkspaceChange(ctx, tx, actor.userId, created, ActivityAction.CREATE_WORKSPACE, {
      activity: { active },
      events: [
        {
          type: 'workspace.created',
          data: {
            client_id: created.id,
            name: created.name,
            active,
            modules: active ? [...modules] : [],
          },
        },
      ],
    });
    if (!active) await askForApproval(ctx, tx, created, actor.userId);
    return created;
  });
  return toClientDto(
    row,
    modules.map((module) => ({ module, enabled: active })),
    effectiveWorkspaceRole({ orgRole: actor.orgRole, workspaceRole: 'OWNER' }),
  );
}

/** Tells each OWNER and ADMIN of the organization that a STAFF member's workspace waits for them. */
async function askForApproval(ctx: AppContext, tx: Tx, created: ClientRow, creatorId: string) {
  for (const recipientId of await organizationApprovers(tx, created.organization_id)) {
    if (recipientId === creatorId) continue;
    await createNotification(tx, {
      type: 'WORKSPACE_APPROVAL',
      status: 'DONE',
      recipientId,
      authorId: creatorId,
      organizationId: created.organization_id,
      clientId: created.id,
      meta: { client_id: created.id },
      extraMessage: `The workspace ${created.name} waits for your approval.`,
      at: ctx.clock.now(),
    });
  }
}

/**
 * POST /v1/clients/: the organization is named in the body, so the access layer could not check
 * it: a non-member (or a missing organization) is a 404, a member who may not create a 403.
 */
export async function createClientIn(
  ctx: AppContext,
  auth: AuthState,
  input: ClientCreate & { organization: string },
): Promise<Client> {
  const actor = await decideTenant(
    ctx.db,
    auth,
    { organizationId: input.organization },
    'organization.clients.create',
  );
  return createClient(ctx, actor, { name: input.name, logo: input.logo });
}

// ---- one workspace ----------------------------------------------------------------------------

export async function getClient(ctx: AppContext, actor: ClientActor): Promise<Client> {
  const dto = toClientDto(actor.client, await listModules(ctx.db, actor.client.id), roleOf(actor));
  return withManagers(ctx, actor, dto, actor.client);
}

/**
 * Changes name, logo or button colour (and, for internal users only, the managers: managers.ts);
 * a name of another live workspace is 409.
 */
export async function updateClient(
  ctx: AppContext,
  actor: ClientActor,
  input: ClientUpdate,
): Promise<Client> {
  const patch = checkManagerChange(ctx, actor, input);
  const current = actor.client;
  const changes = Object.fromEntries(
    Object.entries(patch).filter(
      ([key, value]) => value !== undefined && value !== current[key as keyof ClientRow],
    ),
  ) as ClientUpdate;
  if (Object.keys(changes).length === 0) return getClient(ctx, actor);
  await checkLogo(ctx, actor.userId, changes.logo);
  let row: ClientRow | undefined;
  try {
    row = await ctx.db.transaction(async (tx) => {
      if (!(await lockTenant(tx, tenantOf(current)))) return undefined;
      const [updated] = await tx
        .update(clients)
        .set(changes)
        .where(and(eq(clients.id, current.id), isNull(clients.deleted_at)))
        .returning();
      if (!updated) return undefined;
      // No event: the catalogue has none for a workspace's name, logo or colour.
      await recordWorkspaceChange(ctx, tx, actor.userId, updated, ActivityAction.UPDATE_WORKSPACE, {
        activity: {
          changes: Object.keys(changes),
          ...(changes.name !== undefined && { previous_name: current.name }),
        },
        events: [],
      });
      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
  if (!row) throw notFound();
  const dto = toClientDto(row, await listModules(ctx.db, row.id), roleOf(actor));
  return withManagers(ctx, actor, dto, row);
}

/** Soft delete: the name is free again for a new workspace. */
export async function deleteClient(ctx: AppContext, actor: ClientActor): Promise<void> {
  const done = await ctx.db.transaction(async (tx) => {
    if (!(await lockTenant(tx, tenantOf(actor.client)))) return false;
    const [deleted] = await tx
      .update(clients)
      .set({ deleted_at: ctx.clock.now() })
      .where(and(eq(clients.id, actor.client.id), isNull(clients.deleted_at)))
      .returning();
    if (!deleted) return false;
    await recordWorkspaceChange(ctx, tx, actor.userId, deleted, ActivityAction.DELETE_WORKSPACE, {
      events: [{ type: 'workspace.deleted', data: { client_id: deleted.id } }],
    });
    return true;
  });
  if (!done) throw notFound();
}

/**
 * Approves a pending workspace: active, the organization's OWNERs and ADMINs and its creator
 * become OWNER members, and every module is switched on if none was. Approving an active one is
 * a 400 ALREADY_APPROVED (so is the loser of two approvals at once).
 */
export async function approveClient(ctx: AppContext, actor: ClientActor): Promise<Client> {
  const modules = APP_PROFILES[ctx.config.appProfile];
  const row = await ctx.db.transaction(async (tx) => {
    if (!(await lockTenant(tx, tenantOf(actor.client)))) throw notFound();
    const [approved] = await tx
      .update(clients)
      .set({ active: true })
      .where(
        and(eq(clients.id, actor.client.id), isNull(clients.deleted_at), eq(clients.active, false)),
      )
      .returning();
    if (!approved) {
      throw badRequest(ErrorCode.ALREADY_APPROVED, 'This workspace is already active.');
    }
    // Every module of the app profile has its row (off), then all go on if none was on.
    await tx
      .insert(clientModules)
      .values(modules.map((module) => ({ client_id: approved.id, module, enabled: false })))
      .onConflictDoNothing();
    const switchedOn = await tx
      .update(clientModules)
      .set({ enabled: true, modified_at: sql`now()` })
      .where(
        and(
          eq(clientModules.client_id, approved.id),
          sql`not exists (select 1 from ${clientModules} other
            where other.client_id = ${approved.id} and other.enabled)`,
        ),
      )
      .returning({ module: clientModules.module });
    await grantWorkspaceAccess(tx, approved, {
      organizationAdmins: true,
      userIds: approved.owner_id ? [approved.owner_id] : [],
    });
    await recordWorkspaceChange(ctx, tx, actor.userId, approved, ActivityAction.APPROVE_WORKSPACE, {
      events: [
        {
          type: 'workspace.approved',
          data: { client_id: approved.id, modules: switchedOn.map((m) => m.module) },
        },
      ],
    });
    return approved;
  });
  const role = effectiveWorkspaceRole({
    orgRole: actor.orgRole,
    workspaceRole: actor.workspaceRole ?? 'OWNER',
  });
  return toClientDto(row, await listModules(ctx.db, row.id), role);
}

// ---- modules ----------------------------------------------------------------------------------

export async function getModules(ctx: AppContext, actor: ClientActor): Promise<ClientModule[]> {
  return (await listModules(ctx.db, actor.client.id)).map(toModuleDto);
}

const isModuleCode = (value: string): value is ModuleCode =>
  (MODULE_CODES as readonly string[]).includes(value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sets one module on or off as asked (twice the same is the same). `moduleId` is a module code or
 * the id of one of the workspace's module rows; a code of the app profile without a row gets one.
 * Anything else is a 404. The change is recorded only when something changed.
 */
export async function setModule(
  ctx: AppContext,
  actor: ClientActor,
  moduleId: string,
  enabled: boolean,
): Promise<ClientModule> {
  const clientId = actor.client.id;
  let module: string | undefined;
  if (isModuleCode(moduleId)) module = moduleId;
  else if (UUID.test(moduleId)) {
    const [row] = await ctx.db
      .select({ module: clientModules.module })
      .from(clientModules)
      .where(and(eq(clientModules.id, moduleId), eq(clientModules.client_id, clientId)));
    module = row?.module;
  }
  const unknown = () => notFound('This workspace has no such module.');
  if (!module) throw unknown();
  const code = module;
  const ofProfile = (APP_PROFILES[ctx.config.appProfile] as readonly string[]).includes(code);
  return ctx.db.transaction(async (tx) => {
    if (!(await lockTenant(tx, tenantOf(actor.client)))) throw notFound();
    const changed = await upsertModuleStates(tx, clientId, [code], enabled, {
      createMissing: ofProfile,
    });
    const [row] = await tx
      .select()
      .from(clientModules)
      .where(and(eq(clientModules.client_id, clientId), eq(clientModules.module, code)));
    if (!row) throw unknown();
    if (changed.length > 0) {
      await recordModuleChange(tx, ctx, actor, { modules: changed, enabled });
    }
    return toModuleDto(row);
  });
}

/**
 * Sets the modules' states, creating missing rows when asked (else only existing rows change).
 * Answers the modules whose row was created or changed, in one statement.
 */
async function upsertModuleStates(
  tx: Tx,
  clientId: string,
  modules: readonly string[],
  enabled: boolean,
  options: { createMissing: boolean },
): Promise<string[]> {
  if (!options.createMissing) {
    const rows = await tx
      .update(clientModules)
      .set({ enabled })
      .where(
        and(
          eq(clientModules.client_id, clientId),
          inArray(clientModules.module, [...modules]),
          sql`${clientModules.enabled} <> ${enabled}`,
        ),
      )
      .returning({ module: clientModules.module });
    return rows.map((r) => r.module);
  }
  const rows = await tx
    .insert(clientModules)
    .values(modules.map((module) => ({ client_id: clientId, module, enabled })))
    .onConflictDoUpdate({
      target: [clientModules.client_id, clientModules.module],
      set: { enabled, modified_at: sql`now()` },
      setWhere: sql`${clientModules.enabled} <> excluded.enabled`,
    })
    .returning({ module: clientModules.module });
  return rows.map((r) => r.module);
}

/**
 * UPDATE_WORKSPACE_MODULES in the log (one module's change, or an application's), and an event
 * per module changed (module.enabled or module.disabled).
 */
async function recordModuleChange(
  tx: Tx,
  ctx: AppContext,
  actor: ClientActor,
  change: { app?: AppProfile; modules: readonly string[]; enabled: boolean },
) {
  const { app, modules, enabled } = change;
  const client_id = actor.client.id;
  const type = enabled ? 'module.enabled' : 'module.disabled';
  await recordWorkspaceChange(
    ctx,
    tx,
    actor.userId,
    actor.client,
    ActivityAction.UPDATE_WORKSPACE_MODULES,
    {
      activity: app ? { app, modules, enabled } : { module: modules[0], enabled },
      events: modules.map((module) => ({ type, data: { client_id, module } })),
    },
  );
}

// ---- applications (app profiles) --------------------------------------------------------------

function toApplication(
  app: AppProfile,
  rows: readonly { module: string; enabled: boolean }[],
): ClientApplication {
  const state = new Map(rows.map((r) => [r.module, r.enabled]));
  const modules = APP_PROFILES[app].map((module) => ({
    module,
    name: MODULE_NAMES[module],
    enabled: state.get(module) ?? false,
  }));
  return { app, modules, enabled: modules.some((m) => m.enabled) };
}

export async function getApplication(
  ctx: AppContext,
  actor: ClientActor,
  app: AppProfile,
): Promise<ClientApplication> {
  return toApplication(app, await listModules(ctx.db, actor.client.id));
}

/**
 * Switches every module of an application on or off, creating missing rows. Switching off is
 * refused (409 LAST_ENABLED_MODULE) only when it would turn off the workspace's last enabled
 * modules; the workspace row is locked so two such changes at once cannot both pass.
 */
export async function setApplication(
  ctx: AppContext,
  actor: ClientActor,
  app: AppProfile,
  enabled: boolean,
): Promise<ClientApplication> {
  const clientId = actor.client.id;
  const appModules: readonly string[] = APP_PROFILES[app];
  return ctx.db.transaction(async (tx) => {
    if (!(await lockTenant(tx, tenantOf(actor.client)))) throw notFound();
    const before = await listModules(tx, clientId);
    if (!enabled) {
      const onInApp = before.some((m) => m.enabled && appModules.includes(m.module));
      const onElsewhere = before.some((m) => m.enabled && !appModules.includes(m.module));
      if (onInApp && !onElsewhere) {
        throw conflict(
          ErrorCode.LAST_ENABLED_MODULE,
          'This is the last application with an enabled module: switch another one on first.',
        );
      }
    }
    const changed = await upsertModuleStates(tx, clientId, appModules, enabled, {
      createMissing: true,
    });
    if (changed.length > 0) {
      await recordModuleChange(tx, ctx, actor, { app, modules: changed, enabled });
    }
    const state = new Map(before.map((m) => [m.module, m.enabled]));
    for (const module of appModules) state.set(module, enabled);
    return toApplication(
      app,
      [...state].map(([module, on]) => ({ module, enabled: on })),
    );
  });
}
