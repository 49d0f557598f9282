// The billing module's face: plans, subscriptions, checkouts, cards, plan changes and renewals,
// and the plan limits other modules check (clients: workspaces; members, invitations: users).
export { assertPlanRoom } from './limits.ts';
export { startTrial } from './trial.ts';
