// SUPPORT_EMAIL of the run's server (support/app-server.ts): the footer and the error pages show
// it (spec §1), so the specs can tell the configured address from the default one.
export const E2E_SUPPORT_EMAIL = 'help@portolan.test';
