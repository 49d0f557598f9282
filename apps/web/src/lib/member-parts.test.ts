import { describe, expect, it } from 'vitest';
import { lastActive } from './member-parts';

describe('lastActive', () => {
  const now = new Date(2026, 10, 26, 16, 30).getTime(); // 11/26/2026 16:30, local time
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('says Never for someone never active', () => {
    expect(lastActive(null, now)).toBe('Never');
  });

  it('is relative within a day', () => {
    expect(lastActive(ago(20_000), now)).toBe('Just now');
    expect(lastActive(ago(60_000), now)).toBe('1 minute ago');
    expect(lastActive(ago(5 * 60_000), now)).toBe('5 minutes ago');
    expect(lastActive(ago(60 * 60_000), now)).toBe('1 hour ago');
    expect(lastActive(ago(23 * 3_600_000 + 59 * 60_000), now)).toBe('23 hours ago');
  });

  it('is MM/DD/YYYY HH:mm (local time) from a day on', () => {
    expect(lastActive(new Date(2026, 10, 25, 9, 5).toISOString(), now)).toBe('11/25/2026 09:05');
    expect(lastActive(new Date(2026, 2, 4, 12, 0).toISOString(), now)).toBe('03/04/2026 12:00');
  });
});
