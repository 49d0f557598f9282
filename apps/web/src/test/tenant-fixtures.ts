import { ada } from './api-mock';

/** Organizations and workspaces as the API answers them, for the settings pages' tests. */
export const ORG_ID = '0b7c5a3e-2f41-4c8e-9a6d-1e2f3a4b5c6d';
export const CLIENT_ID = '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
export const PENDING_ID = '9e8d7c6b-5a49-4382-a716-f5e4d3c2b1a0';

export function organization(role: 'OWNER' | 'ADMIN' | 'STAFF' | 'CLIENT' = 'OWNER') {
  return {
    id: ORG_ID,
    name: 'Demo Shipping Co.',
    logo: null,
    has_access: true,
    role: { key: role, name: role.charAt(0) + role.slice(1).toLowerCase() },
    created: '2026-01-15T10:00:00.000Z',
  };
}

export function workspace(
  fields: Partial<{
    id: string;
    name: string;
    active: boolean;
    role: string | null;
    modules: { module: string; enabled: boolean }[];
  }> = {},
) {
  const role = fields.role === undefined ? 'OWNER' : fields.role;
  return {
    id: fields.id ?? CLIENT_ID,
    organization: ORG_ID,
    name: fields.name ?? 'North Atlantic Transit',
    logo: null,
    active: fields.active ?? true,
    role: role ? { key: role, name: role } : null,
    modules: fields.modules ?? [{ module: 'TR', enabled: true }],
    dashboard_button_color: '#1985ac',
    created: '2026-02-03T10:00:00.000Z',
  };
}

export function page<T>(results: T[]) {
  return { count: results.length, next: null, previous: null, results };
}

export const adaWithView = (view: 'ClientsListView' | 'ClientsGridView' = 'ClientsListView') => ({
  ...ada,
  clientsViewOption: view,
});
