import { describe, expect, it } from 'vitest';
import { BellHub, type Bell } from './hub.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

/** A bell that records what it was sent. */
function fakeBell() {
  const bell = { counts: [] as number[], ended: false } as Bell & {
    counts: number[];
    ended: boolean;
  };
  bell.sendCount = (count) => void bell.counts.push(count);
  bell.end = () => void (bell.ended = true);
  return bell;
}

/** A hub over an in-memory unseen count per user, recording every counting call. */
function hubWith(unseen: Record<string, number>, perUser = 3) {
  const calls: string[][] = [];
  const warnings: string[] = [];
  let failNext = 0;
  const hub = new BellHub(
    async (ids) => {
      calls.push(ids);
      if (failNext > 0) {
        failNext--;
        throw new Error('database away');
      }
      return new Map(ids.map((id) => [id, unseen[id] ?? 0]));
    },
    perUser,
    { warn: (_obj, msg) => void warnings.push(msg) },
  );
  return { hub, calls, warnings, failTimes: (n: number) => (failNext = n) };
}

describe('BellHub', () => {
  it('holds at most perUser bells per user; a removed one frees its place', () => {
    const { hub } = hubWith({});
    const bells = Array.from({ length: 4 }, fakeBell);
    expect(bells.map((b) => hub.add('u1', b))).toEqual([true, true, true, false]);
    expect(hub.add('u2', fakeBell())).toBe(true);
    hub.remove('u1', bells[0]!);
    expect(hub.openFor('u1')).toBe(2);
    expect(hub.add('u1', bells[3]!)).toBe(true);
    expect(hub.size).toBe(4);
  });

  it('counts announcements of one moment in one call, and only for users with bells here', async () => {
    const { hub, calls } = hubWith({ u1: 2, u2: 5 });
    const [a, b, c] = [fakeBell(), fakeBell(), fakeBell()];
    hub.add('u1', a);
    hub.add('u1', b);
    hub.add('u2', c);
    hub.announce('u1');
    hub.announce('u2');
    hub.announce('u1');
    hub.announce('nobody-here');
    await tick();
    expect(calls).toEqual([['u1', 'u2']]);
    expect([a.counts, b.counts, c.counts]).toEqual([[2], [2], [5]]);
  });

  it('counts again for an announcement made while a count is running', async () => {
    const unseen = { u1: 1 };
    const { hub, calls } = hubWith(unseen);
    const bell = fakeBell();
    hub.add('u1', bell);
    hub.announce('u1');
    await new Promise((resolve) => setImmediate(resolve));
    // The first count is under way: a new notification arrives meanwhile.
    unseen.u1 = 2;
    hub.announce('u1');
    await tick();
    expect(calls).toHaveLength(2);
    expect(bell.counts.at(-1)).toBe(2);
  });

  it('tells every bell after announceAll, and ends them all on endAll', async () => {
    const { hub } = hubWith({ u1: 1, u2: 0 });
    const [a, b] = [fakeBell(), fakeBell()];
    hub.add('u1', a);
    hub.add('u2', b);
    const before = hub.announcements;
    hub.announceAll();
    expect(hub.announcements).toBe(before + 1);
    await tick();
    expect([a.counts, b.counts]).toEqual([[1], [0]]);
    hub.endAll();
    expect([a.ended, b.ended, hub.size]).toEqual([true, true, 0]);
  });

  it('counts again later when the database did not answer, warning once', async () => {
    const { hub, calls, warnings, failTimes } = hubWith({ u1: 4 });
    const bell = fakeBell();
    hub.add('u1', bell);
    failTimes(2);
    hub.announce('u1');
    await tick();
    expect(bell.counts).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 4_300));
    expect(calls).toHaveLength(3);
    expect(bell.counts).toEqual([4]);
    expect(warnings).toHaveLength(1);
  });
});
