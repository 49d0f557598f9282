/** Notifications of the bell (spec §4 "Notifications", REFERENCE "Notifications and activities"). */

export const NOTIFICATION_TYPES = ['INVITATION', 'WARNING'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** An INVITATION is OPEN until it is accepted or declined, then DONE. */
export const NOTIFICATION_STATUSES = ['OPEN', 'DONE'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** Spec §9: the bell shows 10, Load more adds 10; it polls every 60000 ms. */
export const NOTIFICATION_PAGE_SIZE = 10;
export const NOTIFICATION_POLL_MS = 60_000;
