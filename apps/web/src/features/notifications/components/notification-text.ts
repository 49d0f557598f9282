import { ROLE_NAMES, type Role } from '@portolan/contract';
import { safeRedirectPath } from '../../../lib/navigation';
import type { BellNotification } from '../api/notifications-api';

const personName = (p: NonNullable<BellNotification['author']>) =>
  `${p.first_name} ${p.last_name}`.trim() || p.email;

/** What a notification says, from its type and meta (the server's extra message when it has one). */
export function notificationText(n: BellNotification): string {
  if (n.type !== 'INVITATION') return n.extra_message || 'A message from Portolan.';
  const who = n.author ? personName(n.author) : 'Someone';
  const role = n.meta.role && n.meta.role in ROLE_NAMES ? ROLE_NAMES[n.meta.role as Role] : null;
  const as = role ? ` as ${role}` : '';
  const target =
    n.meta.type === 'client'
      ? `the workspace ${n.client?.name ?? n.meta.client?.name ?? ''}`.trim()
      : `the organization ${n.organization?.name ?? n.meta.organization?.name ?? ''}`.trim();
  const text = `${who} invited you to join ${target}${as}.`;
  // Invitations made before the server stopped repeating the offer carry it as extra message too.
  const repeated =
    n.extra_message && / invited you to the (workspace|organization) /.test(n.extra_message);
  return n.extra_message && !repeated ? `${text} ${n.extra_message}` : text;
}

const MINUTE = 60_000;

/** "just now", "5 min ago", "3 h ago", or the date, for the time of a notification. */
export function relativeTime(iso: string, now = Date.now()): string {
  const at = new Date(iso).getTime();
  const ago = Math.max(0, now - at);
  if (ago < MINUTE) return 'just now';
  if (ago < 60 * MINUTE) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < 24 * 60 * MINUTE) return `${Math.floor(ago / (60 * MINUTE))} h ago`;
  return new Date(iso).toLocaleDateString('en-US', {
    month: '2-digit',
    day: '2-digit',
    year: 'numeric',
  });
}

/** What the link of a BILLING notification says, by the billing page it leads to. */
const BILLING_ACTIONS: [RegExp, string][] = [
  [/\/billing\/cards\/?$/, 'Update the card'],
  [/\/billing\/fund-packages\/?$/, 'Add funds'],
  [/\/billing\/wallet\/?$/, 'Open wallet settings'],
  [/\/billing\/plans\/?$/, 'Choose a plan'],
  [/\/billing\/subscription\/?$/, 'See the subscription'],
  [/\/billing\/history\/?$/, 'See the billing history'],
];

/**
 * A BILLING notification's way to act (issue 22): its meta `path`, when it is a path of this app,
 * with a label saying what waits there. Null for other types and for anything else.
 */
export function billingAction(n: BellNotification): { path: string; label: string } | null {
  if (n.type !== 'BILLING') return null;
  const path = safeRedirectPath(n.meta.path);
  if (!path) return null;
  const pathname = path.split(/[?#]/)[0] ?? path;
  const label = BILLING_ACTIONS.find(([re]) => re.test(pathname))?.[1] ?? 'Open';
  return { path, label };
}
