import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clientModules, clients } from '../../db/schema/index.ts';
import type { Exporter } from '../../lib/data-export.ts';

/** An organization's workspaces with their settings and modules (workspaces.json). */

async function workspacesOf(db: Db, orgId: string) {
  const rows = await db
    .select()
    .from(clients)
    .where(eq(clients.organization_id, orgId))
    .orderBy(asc(clients.created_at), asc(clients.id));
  const ids = rows.map((c) => c.id);
  const modules = ids.length
    ? await db
        .select()
        .from(clientModules)
        .where(inArray(clientModules.client_id, ids))
        .orderBy(asc(clientModules.module))
    : [];
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    logo: c.logo,
    active: c.active,
    owner_id: c.owner_id,
    dashboard_button_color: c.dashboard_button_color,
    account_manager: c.account_manager,
    special_project_manager: c.special_project_manager,
    default_client_header_logo: c.default_client_header_logo,
    custom_css: c.custom_css,
    extra_information: c.extra_information,
    modules: modules
      .filter((m) => m.client_id === c.id)
      .map((m) => ({ module: m.module, enabled: m.enabled })),
    created_at: c.created_at,
    modified_at: c.modified_at,
    deleted_at: c.deleted_at,
  }));
}

export const clientsExporter: Exporter = {
  tables: ['clients', 'clientModules'],
  sections: {
    ORGANIZATION: {
      'workspaces.json': { json: ({ db, id }) => workspacesOf(db, id) },
    },
  },
};
