import { describe, expect, it } from 'vitest';
import { isSubscriptionActive } from './billing.ts';

const NOW = new Date('2099-03-15T12:00:00.000Z');
const AHEAD = '2099-04-01T12:00:00.000Z';
const PAST = '2099-03-01T12:00:00.000Z';

describe('isSubscriptionActive (spec §4)', () => {
  it('is active when is_active is true, whatever the expiry and amount', () => {
    expect(isSubscriptionActive({ is_active: true, expired_in: PAST, amount: 0 }, NOW)).toBe(true);
    expect(isSubscriptionActive({ is_active: true, expired_in: null, amount: 0 }, NOW)).toBe(true);
  });

  it('is active when is_active is false but the expiry is ahead and the amount above 0', () => {
    expect(isSubscriptionActive({ is_active: false, expired_in: AHEAD, amount: 4900 }, NOW)).toBe(
      true,
    );
    expect(isSubscriptionActive({ is_active: false, expired_in: AHEAD, amount: 1 }, NOW)).toBe(
      true,
    );
  });

  it('is not active otherwise: expiry past or now, no expiry, amount 0, or no subscription', () => {
    const off = { is_active: false, amount: 4900 };
    expect(isSubscriptionActive({ ...off, expired_in: PAST }, NOW)).toBe(false);
    expect(isSubscriptionActive({ ...off, expired_in: NOW.toISOString() }, NOW)).toBe(false);
    expect(isSubscriptionActive({ ...off, expired_in: null }, NOW)).toBe(false);
    expect(isSubscriptionActive({ is_active: false, expired_in: AHEAD, amount: 0 }, NOW)).toBe(
      false,
    );
    expect(isSubscriptionActive(null, NOW)).toBe(false);
    expect(isSubscriptionActive(undefined, NOW)).toBe(false);
  });
});
