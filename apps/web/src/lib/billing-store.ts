import {
  registerPlanOf,
  type OrganizationSubscription,
  type Plan,
  type PlanType,
} from '@portolan/contract';
import { create } from 'zustand';

/**
 * The billing store of spec §4 (not persisted: every tab checks afresh). TanStack Query does the
 * fetching; this holds what the gate and the register flow need between pages: whether the first
 * subscription check has happened, whether polling stopped after a failure, the plan chosen on
 * /register?plan=, and the latest lists with their loading flags.
 */
export interface BillingState {
  /** The 3 s wait before the first subscription fetch is over (spec §4, §9). */
  subscriptionsDelayDone: boolean;
  /** The subscriptions have been read at least once in this tab: the gate may decide. */
  subscriptionsChecked: boolean;
  /** A subscription fetch failed: no more polling until the page is reloaded (spec §4, §8). */
  pollingStopped: boolean;
  /** STANDARD, PROFESSIONAL, BUSINESS, CUSTOM from /register?plan=, or null. */
  registerPlan: PlanType | null;
  subscriptions: OrganizationSubscription[];
  subscriptionsLoading: boolean;
  /**
   * The current organization's available balance, minor units (null: not read, or not the
   * caller's to read): fetched 3 s after the page opens, like the subscriptions, and again
   * whenever the billing pages reread it (a top-up).
   */
  balance: number | null;
  balanceLoading: boolean;
  /** The plans of the app profile (transit), in their order. */
  planConfigs: Plan[];
  planConfigsLoading: boolean;

  setRegisterPlan: (value: string | null | undefined) => void;
  markDelayDone: () => void;
  setSubscriptions: (list: OrganizationSubscription[]) => void;
  setSubscriptionsLoading: (loading: boolean) => void;
  stopPolling: () => void;
  setBalance: (balance: number | null) => void;
  setBalanceLoading: (loading: boolean) => void;
  setPlanConfigs: (plans: Plan[]) => void;
  setPlanConfigsLoading: (loading: boolean) => void;
  reset: () => void;
}

const initial = {
  subscriptionsDelayDone: false,
  subscriptionsChecked: false,
  pollingStopped: false,
  registerPlan: null,
  subscriptions: [],
  subscriptionsLoading: false,
  balance: null,
  balanceLoading: false,
  planConfigs: [],
  planConfigsLoading: false,
} satisfies Partial<BillingState>;

export const useBillingStore = create<BillingState>()((set) => ({
  ...initial,
  // Anything but the four plan types (a typo, an old link) is dropped, not kept half-valid.
  setRegisterPlan: (value) => set({ registerPlan: registerPlanOf(value) }),
  markDelayDone: () => set({ subscriptionsDelayDone: true }),
  setSubscriptions: (subscriptions) => set({ subscriptions, subscriptionsChecked: true }),
  setSubscriptionsLoading: (subscriptionsLoading) => set({ subscriptionsLoading }),
  stopPolling: () => set({ pollingStopped: true, subscriptionsLoading: false }),
  setBalance: (balance) => set({ balance }),
  setBalanceLoading: (balanceLoading) => set({ balanceLoading }),
  setPlanConfigs: (planConfigs) => set({ planConfigs }),
  setPlanConfigsLoading: (planConfigsLoading) => set({ planConfigsLoading }),
  reset: () => set(initial),
}));
