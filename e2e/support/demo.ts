// The demo data every browser run starts with (support/app-server.ts runs `npm run seed`'s CLI
// before the server): the same values as apps/api/src/seed/demo.ts, which e2e does not import.
export const DEMO_OWNER = { email: 'owner@portolan.demo', password: 'Portolan demo owner 2026' };
export const DEMO_STAFF = { email: 'staff@portolan.demo', password: 'Portolan demo staff 2026' };
export const DEMO_ORGANIZATION = 'Demo Shipping Co.';
export const DEMO_WORKSPACES = ['North Atlantic Transit', 'Pacific Freight Lanes'];
export const DEMO_PENDING_WORKSPACE = 'Gulf Coast Pilot';

// An organization whose subscription has lapsed (EXPIRED, no longer active), for the subscription
// gate of spec §4: made by support/seed-lapsed.ts right after the demo seed, before the server
// starts (its clock cannot be moved from a browser test). An owner and a STAFF member of it, both
// members of its one workspace.
export const LAPSED_OWNER = {
  email: 'lapsed.owner@portolan.demo',
  password: 'Lapsed owner passphrase 2026',
};
export const LAPSED_STAFF = {
  email: 'lapsed.staff@portolan.demo',
  password: 'Lapsed staff passphrase 2026',
};
export const LAPSED_ORGANIZATION = 'Lapsed Lines e2e';
export const LAPSED_WORKSPACE = 'Becalmed Harbour';
