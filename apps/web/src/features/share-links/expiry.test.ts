import { describe, expect, it } from 'vitest';
import { dayOf, endOfDay, expiresAtFor, expiryDayError, lastExpiryDay } from './expiry';

describe('share link expiry', () => {
  const now = new Date(2030, 5, 1, 10, 30); // 06/01/2030 10:30, local time

  it('ends a chosen day at 23:59:59.999 local time; no such day is null', () => {
    const end = endOfDay('2030-06-08')!;
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours()]).toEqual([
      2030, 5, 8, 23,
    ]);
    expect(end.getMilliseconds()).toBe(999);
    expect(endOfDay('2030-02-30')).toBeNull();
    expect(endOfDay('06/08/2030')).toBeNull();
  });

  it('takes today up to the last day within a year', () => {
    expect(expiryDayError('', now)).toBe('Choose the day the link expires.');
    expect(expiryDayError('2030-05-31', now)).toBe('Choose today or a later day.');
    expect(expiryDayError(dayOf(now), now)).toBeNull();
    expect(expiryDayError(lastExpiryDay(now), now)).toBeNull();
    expect(expiryDayError('2031-06-01', now)).toBe('Choose a day within a year from today.');
  });

  it('sends null for never, now plus the days, or the end of the day', () => {
    expect(expiresAtFor('none', '', now)).toBeNull();
    expect(expiresAtFor('7', '', now)).toBe(new Date(now.getTime() + 7 * 86_400_000).toISOString());
    expect(expiresAtFor('date', '2030-06-08', now)).toBe(endOfDay('2030-06-08')!.toISOString());
  });
});
