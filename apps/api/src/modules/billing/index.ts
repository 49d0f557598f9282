// The billing module's face: plans, subscriptions, checkouts, cards, plan changes and renewals,
// the wallet (fund packages, balance, ledger, charges) and invoices,
// and the plan limits other modules check (clients: workspaces; members, invitations: users).
import type { App } from '../../context.ts';
import { billingDetailsRoutes } from './billing-details-routes.ts';
import { creditNoteRoutes } from './credit-note-routes.ts';
import { autoTopUpRoutes } from './auto-top-up-routes.ts';
import { planChangeRoutes } from './plan-change-routes.ts';
import { planRoutes } from './plans-routes.ts';
import { billingRoutes } from './routes.ts';
import { sandboxRoutes } from './sandbox-routes.ts';
import { usageRoutes } from './usage-routes.ts';
import { spendingRoutes } from './spending-routes.ts';
import { walletRoutes } from './wallet-routes.ts';

export { assertMemberLimit, assertPlanRoom } from './limits.ts';
export { startTrial } from './trial.ts';
export { renewalJob } from './renewal.ts';
export { autoTopUpJob } from './auto-top-up-worker.ts';
export { recordInvoice } from './invoices.ts';
export { adjustBalance } from './wallet-service.ts';

/** The module's routes (registered by app.ts through MODULES). */
export async function billingModule(app: App): Promise<void> {
  await app.register(planRoutes);
  await app.register(billingRoutes);
  await app.register(planChangeRoutes);
  await app.register(walletRoutes);
  await app.register(billingDetailsRoutes);
  await app.register(creditNoteRoutes);
  await app.register(autoTopUpRoutes);
  await app.register(usageRoutes);
  await app.register(spendingRoutes);
  // Encapsulated: the sandbox page's form parser stays with it.
  await app.register(sandboxRoutes);
}
export { billingExporter } from './data-export.ts';
