import type { MyOrganizationEntry } from '@portolan/contract';

/** Ids of the organizations and workspaces of the tenancy fixtures. */
export const ids = {
  acme: '0a000000-0000-4000-8000-000000000001',
  zeta: '0a000000-0000-4000-8000-000000000002',
  beta: '0a000000-0000-4000-8000-000000000003',
  harbour: '0c000000-0000-4000-8000-000000000001',
  dock: '0c000000-0000-4000-8000-000000000002',
  zebra: '0c000000-0000-4000-8000-000000000003',
  quiet: '0c000000-0000-4000-8000-000000000004',
} as const;

const role = (key: 'OWNER' | 'ADMIN' | 'MANAGER' | 'STAFF' | 'CLIENT') => ({
  key,
  name: key[0] + key.slice(1).toLowerCase(),
});

function workspace(
  id: string,
  name: string,
  key: 'OWNER' | 'ADMIN' | 'MANAGER' | 'STAFF' | 'CLIENT',
  enabled = true,
): MyOrganizationEntry['clients'][number] {
  return {
    id,
    name,
    logo: null,
    active: true,
    role: role(key),
    modules: [{ module: 'TR', enabled }],
    dashboard_button_color: '#1985ac',
  };
}

/** zeta (Ada is STAFF: a Manager in Zebra), Acme (OWNER: Harbour, dock), beta (CLIENT). */
export function orgList(): MyOrganizationEntry[] {
  return [
    {
      organization: {
        id: ids.zeta,
        name: 'zeta',
        logo: null,
        has_access: true,
        role: role('STAFF'),
      },
      clients: [workspace(ids.zebra, 'Zebra', 'MANAGER')],
    },
    {
      organization: {
        id: ids.acme,
        name: 'Acme',
        logo: null,
        has_access: true,
        role: role('OWNER'),
      },
      clients: [
        workspace(ids.harbour, 'Harbour', 'OWNER'),
        workspace(ids.dock, 'dock', 'OWNER'),
        workspace(ids.quiet, 'Quiet', 'OWNER', false),
      ],
    },
    {
      organization: {
        id: ids.beta,
        name: 'beta',
        logo: null,
        has_access: true,
        role: role('CLIENT'),
      },
      clients: [],
    },
  ];
}

export const page = <T>(results: T[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});
