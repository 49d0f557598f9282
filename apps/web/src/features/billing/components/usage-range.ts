import { USAGE_MAX_DAYS } from '@portolan/contract';

/** A day as the usage report takes it: YYYY-MM-DD, UTC. */
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The report's first range: the current month (UTC) up to today, as the server's default. */
export function thisMonth(now = new Date()): { from: string; to: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { from: isoDay(first), to: isoDay(now) };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with a range before asking (the server's rules and words), by field. */
export function rangeErrors(from: string, to: string): { from?: string; to?: string } {
  const errors: { from?: string; to?: string } = {};
  if (!DAY.test(from)) errors.from = 'Give a start date.';
  if (!DAY.test(to)) errors.to = 'Give an end date.';
  if (errors.from || errors.to) return errors;
  if (from > to) return { to: 'The end date must be on or after the start date.' };
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (days >= USAGE_MAX_DAYS) return { to: `Ask for at most ${USAGE_MAX_DAYS} days at once.` };
  return {};
}
