import { useEffect, useState } from 'react';

/** One server-sent event: its name and its data lines joined. */
export interface StreamEvent {
  event: string;
  data: string;
}

/** Splits a server-sent-events text into complete events; returns them and the unfinished rest. */
export function parseEvents(buffer: string): { events: StreamEvent[]; rest: string } {
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: StreamEvent[] = [];
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue; // a comment: the heartbeat
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

const MAX_BACKOFF_MS = 30_000;

/**
 * The bell's push channel: GET /v1/user/notification/stream/ read with fetch (EventSource cannot
 * send the bearer token), giving the unseen count each time the server announces a change. It
 * reconnects with a growing pause (1 s up to 30 s) after a drop; polling stays the fallback.
 * Answers null until the first count arrives.
 */
export function useNotificationPush(token: string | null): number | null {
  const [count, setCount] = useState<number | null>(null);

  useEffect(() => {
    if (!token || typeof ReadableStream === 'undefined') return;
    const controller = new AbortController();
    let backoff = 1_000;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = async () => {
      try {
        const response = await fetch('/v1/user/notification/stream/', {
          headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
          signal: controller.signal,
          cache: 'no-store',
        });
        // Signed out or refused: no retry; the session logic handles a dead token.
        if (response.status === 401 || response.status === 403) return;
        if (!response.ok || !response.body) throw new Error(`stream ${response.status}`);
        backoff = 1_000;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseEvents(buffer + value);
          buffer = parsed.rest;
          for (const e of parsed.events) {
            if (e.event !== 'notification') continue;
            const body = JSON.parse(e.data) as { count?: unknown };
            if (typeof body.count === 'number') setCount(body.count);
          }
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      if (controller.signal.aborted) return;
      timer = setTimeout(() => void connect(), backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    };
    // In a task of its own: the stream becomes due with the count and the release notes' dot,
    // and starting each request costs a slow phone some 30 ms (lib/own-task.ts).
    timer = setTimeout(() => void connect(), 0);

    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [token]);

  return count;
}
