import { SHARE_LINK_MAX_DAYS, type ShareExpiryChoice } from '@portolan/contract';

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The end of a calendar day (YYYY-MM-DD) in the visitor's time zone, or null for no such day. */
export function endOfDay(value: string): Date | null {
  if (!DAY.test(value)) return null;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const end = new Date(y, m - 1, d, 23, 59, 59, 999);
  return end.getDate() === d ? end : null;
}

/** YYYY-MM-DD of a date in the visitor's time zone (for a date input's min and max). */
export function dayOf(date: Date): string {
  const mm = String(date.getMonth() + 1).padStart(2, '0');
  const dd = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${mm}-${dd}`;
}

/** The last day a link may expire on: its end must stay within SHARE_LINK_MAX_DAYS from now. */
export const lastExpiryDay = (now: Date) =>
  dayOf(new Date(now.getTime() + (SHARE_LINK_MAX_DAYS - 1) * DAY_MS));

/** What is wrong with a chosen expiry day, or null. The link expires at the end of that day. */
export function expiryDayError(value: string, now: Date): string | null {
  if (!value) return 'Choose the day the link expires.';
  const end = endOfDay(value);
  if (!end) return 'Give a date as MM/DD/YYYY.';
  if (end.getTime() <= now.getTime()) return 'Choose today or a later day.';
  if (end.getTime() > now.getTime() + SHARE_LINK_MAX_DAYS * DAY_MS)
    return 'Choose a day within a year from today.';
  return null;
}

/** The `expires_at` to send for a choice: null for never, an ISO date-time otherwise. */
export function expiresAtFor(choice: ShareExpiryChoice, day: string, now: Date): string | null {
  if (choice === 'none') return null;
  if (choice === 'date') return endOfDay(day)?.toISOString() ?? null;
  return new Date(now.getTime() + Number(choice) * DAY_MS).toISOString();
}
