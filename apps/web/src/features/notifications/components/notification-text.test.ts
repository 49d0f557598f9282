import { describe, expect, it } from 'vitest';
import type { BellNotification } from '../api/notifications-api';
import { notificationText } from './notification-text';

const invitation = (extra_message: string | null): BellNotification => ({
  id: 'n1',
  type: 'INVITATION',
  status: 'OPEN',
  is_seen: false,
  extra_message,
  created: new Date().toISOString(),
  meta: { type: 'organization', role: 'ADMIN', organization: { id: 'o1', name: 'Acme' } },
  author: { id: 'u2', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
  organization: { id: 'o1', name: 'Acme' },
  client: null,
});

describe('notificationText', () => {
  it('says an invitation once, even one stored with the offer repeated as extra message', () => {
    const once = 'Grace Hopper invited you to join the organization Acme as Admin.';
    expect(notificationText(invitation(null))).toBe(once);
    expect(
      notificationText(invitation('Grace Hopper invited you to the organization Acme as Admin.')),
    ).toBe(once);
    // A message of the inviter's own still follows the offer.
    expect(notificationText(invitation('Welcome aboard.'))).toBe(`${once} Welcome aboard.`);
  });

  it('says what a role change or an approval request tells', () => {
    const told = {
      ...invitation('Your role in the organization Acme changed from Staff to Admin.'),
      type: 'ROLE_CHANGED' as const,
      status: 'DONE' as const,
    };
    expect(notificationText(told)).toBe(
      'Your role in the organization Acme changed from Staff to Admin.',
    );
  });
});
