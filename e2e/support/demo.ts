// The demo data every browser run starts with (support/app-server.ts runs `npm run seed`'s CLI
// before the server): the same values as apps/api/src/seed/demo.ts, which e2e does not import.
export const DEMO_OWNER = { email: 'owner@portolan.demo', password: 'Portolan demo owner 2026' };
export const DEMO_STAFF = { email: 'staff@portolan.demo', password: 'Portolan demo staff 2026' };
export const DEMO_ORGANIZATION = 'Demo Shipping Co.';
export const DEMO_WORKSPACES = ['North Atlantic Transit', 'Pacific Freight Lanes'];
export const DEMO_PENDING_WORKSPACE = 'Gulf Coast Pilot';
