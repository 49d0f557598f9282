// Test support: a bell's event stream read over real HTTP with fetch, as the web app reads it.

export interface BellEvent {
  event: string;
  data: string;
  /** performance.now() when the event was read. */
  at: number;
}

export interface BellStream {
  status: number;
  headers: Headers;
  /** Every `notification` event's count, in order. */
  readonly counts: number[];
  readonly events: BellEvent[];
  /** How many `: heartbeat` comments arrived. */
  readonly heartbeats: number;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  readonly isEnded: boolean;
  /** The next count event after the `seen`-th, within `ms`. */
  countAfter(seen: number, ms?: number): Promise<{ count: number; at: number }>;
  /** Waits until a count event says `count`; answers when it was read. */
  waitForCount(count: number, ms?: number): Promise<number>;
  close(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(ms: number, what: string, probe: () => T | undefined): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(5);
  }
}

/** Opens GET /v1/user/notification/stream/ on `base` with a bearer token and reads it on. */
export async function openBellStream(
  base: string,
  token: string | null,
  headers: Record<string, string> = {},
): Promise<BellStream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/v1/user/notification/stream/`, {
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...headers },
    signal: controller.signal,
  });
  const events: BellEvent[] = [];
  const counts: number[] = [];
  let heartbeats = 0;
  let isEnded = false;
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          if (block.startsWith(':')) {
            heartbeats++;
            continue;
          }
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
          events.push({ event, data, at: performance.now() });
          if (event === 'notification') counts.push((JSON.parse(data) as { count: number }).count);
        }
      }
    } catch {
      // aborted by close()
    } finally {
      isEnded = true;
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    counts,
    events,
    get heartbeats() {
      return heartbeats;
    },
    ended,
    get isEnded() {
      return isEnded;
    },
    countAfter: (seen, ms = 2_000) =>
      until(ms, `count event #${seen + 1}`, () => {
        const event = events.filter((e) => e.event === 'notification')[seen];
        return event && { count: counts[seen]!, at: event.at };
      }),
    waitForCount: (count, ms = 2_000) =>
      until(ms, `count ${count}`, () => {
        const i = counts.lastIndexOf(count);
        return i === -1 ? undefined : events.filter((e) => e.event === 'notification')[i]!.at;
      }),
    close: () => controller.abort(),
  };
}
