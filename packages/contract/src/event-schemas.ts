import { z } from 'zod';
import type { MembershipStatus } from './access.ts';
import type { InvoiceKind, SubscriptionStatus } from './billing.ts';
import type { PlanType, Role } from './constants.ts';
import { EVENT_TYPE_CATALOGUE, EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from './integrations.ts';
import { singleLine } from './text.ts';

/**
 * The events of an organization (issue 21 item 3): the feed GET /v1/organizations/{orgId}/events/
 * and the catalogue GET /v1/webhooks/event-types/. Webhook deliveries carry the same `data`.
 */

const datetime = () => z.iso.datetime({ offset: true });

/** Events the feed answers when no `limit` is given, and the most it answers at once. */
export const EVENT_FEED_PAGE_SIZE = 50;
export const EVENT_FEED_MAX_LIMIT = 100;

/** GET …/events/?after=<cursor>&limit= */
export const eventFeedQuerySchema = z.strictObject({
  /** The `next_cursor` of an earlier answer; absent: from the oldest event kept. */
  after: singleLine().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(EVENT_FEED_MAX_LIMIT).default(EVENT_FEED_PAGE_SIZE),
});
export type EventFeedQuery = z.infer<typeof eventFeedQuerySchema>;

export const eventSchema = z.object({
  /** The `webhook-id` of its deliveries. */
  id: z.uuid(),
  type: z.enum(EVENT_TYPES),
  /** What it is about: `member:<user id>`, `invitation:<id>`, `workspace:<id>`, … */
  subject: z.string(),
  /** Its fields, by type: EventDataMap. */
  data: z.record(z.string(), z.unknown()),
  created: datetime(),
});
export type OrganizationEvent = z.infer<typeof eventSchema>;

export const eventFeedSchema = z.object({
  results: z.array(eventSchema),
  /** Where the next call starts: after the last result, or the cursor given when none came. */
  next_cursor: z.string(),
  /** Whether more events are ready now (call again at once) or not (poll later). */
  has_more: z.boolean(),
});
export type EventFeed = z.infer<typeof eventFeedSchema>;

const SUBSCRIBABLE = new Set<string>(SUBSCRIBABLE_EVENT_TYPES);

/** What an endpoint may subscribe to, with what each means (the test event is never listed). */
export const EVENT_TYPE_LIST = EVENT_TYPE_CATALOGUE.filter((e) => SUBSCRIBABLE.has(e.type)).map(
  ({ type, description }) => ({ type, description }),
);

export const eventTypeListSchema = z.object({
  results: z.array(z.object({ type: z.enum(EVENT_TYPES), description: z.string() })),
});
export type EventTypeList = z.infer<typeof eventTypeListSchema>;

// ---- the data of each type ---------------------------------------------------------------------

/**
 * Where a membership is: the organization (`client_id` null) or one of its workspaces. A member
 * removed from the organization leaves its workspaces too: one event says both.
 */
type MembershipPlace = {
  scope: 'organization' | 'workspace';
  client_id: string | null;
};

/** Money as the contract writes it everywhere: an integer of minor units, and its currency. */
type Money = {
  amount: number;
  currency: string;
};

/**
 * The `data` of each type the server records (API keys' and the test event's are their module's):
 * ids and the fields that matter, the e-mail of the member concerned, never a secret. The subject
 * follows from it: `member:<user_id>`, `invitation:<invitation_id>`, `workspace:<client_id>` (its
 * modules too), `subscription:<organization id>`, `balance:<organization id>`,
 * `invoice:<invoice_id>`.
 */
export interface EventDataMap {
  /** `via`: an accepted invitation, a force-invitation, or workspace access granted by a manager. */
  'member.added': MembershipPlace & {
    user_id: string;
    email: string;
    role: Role;
    via: 'invitation' | 'force_invitation' | 'grant';
  };
  /** `status` PENDING: the invitation was withdrawn before an answer. */
  'member.removed': MembershipPlace & {
    user_id: string;
    email: string;
    role: Role;
    status: MembershipStatus;
  };
  /** Also a member kept in their workspaces as external when removed from the organization. */
  'member.role_changed': MembershipPlace & {
    user_id: string;
    email: string;
    from: Role;
    to: Role;
  };
  /** A resent invitation is a new one (a new id; the old one's link stops working). */
  'invitation.sent': MembershipPlace & {
    invitation_id: string;
    user_id: string;
    email: string;
    role: Role;
    expires_at: string;
  };
  'invitation.accepted': MembershipPlace & {
    invitation_id: string;
    user_id: string;
    email: string;
    role: Role;
  };
  'invitation.declined': MembershipPlace & {
    invitation_id: string;
    user_id: string;
    role: Role;
  };
  /** `active` false: made by STAFF, it waits for approval (workspace.approved). */
  'workspace.created': { client_id: string; name: string; active: boolean; modules: string[] };
  /** `modules`: those approval switched on (all of the app's when none was). */
  'workspace.approved': { client_id: string; modules: string[] };
  'workspace.deleted': { client_id: string };
  'module.enabled': { client_id: string; module: string };
  'module.disabled': { client_id: string; module: string };
  /**
   * `change`: subscribed (a paid checkout), plan_changed (upgrade or downgrade: `previous_plan`,
   * null otherwise), unsubscribed (it ends at `period_end`), ended (cancelled at its period's
   * end, or expired after its failed renewals). `period_end`: when the current period ends, to
   * renew or to end.
   */
  'subscription.changed': {
    change: 'subscribed' | 'plan_changed' | 'unsubscribed' | 'ended';
    plan: PlanType;
    previous_plan: PlanType | null;
    status: SubscriptionStatus;
    period_end: string | null;
  };
  /** `amount` drawn (positive), the service's key and quantity, and the balance left. */
  'balance.charged': Money & {
    entry_id: string;
    service: string;
    quantity: number;
    available_balance: number;
  };
  /** `amount` credited to the balance; `invoice_id` of the payment. */
  'balance.topped_up': Money & {
    entry_id: string;
    invoice_id: string | null;
    available_balance: number;
  };
  'invoice.paid': Money & { invoice_id: string; number: string; kind: InvoiceKind };
  /**
   * The platform refunded `amount` of an invoice (issue 22 item 7): its credit note, and the
   * credit a fund package's refund took back from the balance (0 for none).
   */
  'invoice.refunded': Money & {
    invoice_id: string;
    number: string;
    credit_note_id: string;
    credit_note_number: string;
    reason: string;
    credit_taken_back: number;
  };
  /**
   * A charge took the balance below a low-balance threshold (issue 22 item 3): once per
   * crossing, one event per threshold crossed; `available_balance` is what is left.
   */
  'balance.low': { threshold: number; available_balance: number; currency: string };
}
/** The event types whose data EventDataMap describes. */
export type RecordedEventType = keyof EventDataMap;
