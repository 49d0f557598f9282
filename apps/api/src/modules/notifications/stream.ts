import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { NOTIFICATION_STREAM_EVENT } from '@portolan/contract';
import type { Bell } from './hub.ts';

/**
 * A client that stops reading lets our writes pile up in memory; past this many unsent bytes
 * (thousands of events) its stream is cut and it reconnects when it reads again.
 */
const MAX_UNSENT_BYTES = 64 * 1024;

/**
 * A bell over server-sent events, written straight to the socket (the reply is hijacked): never
 * compressed or buffered on the way, since every event must arrive when it is written.
 */
export class SseBell implements Bell {
  private readonly res: ServerResponse;

  constructor(res: ServerResponse) {
    this.res = res;
  }

  /** Sends the headers and the first count. `headers`: those Fastify holds for the reply. */
  open(headers: OutgoingHttpHeaders, count: number): void {
    this.res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      // Nothing in between may keep, transform (compress) or hold back the stream...
      'cache-control': 'no-cache, no-store, no-transform',
      // ...nginx included, which buffers proxied answers unless told not to.
      'x-accel-buffering': 'no',
    });
    this.sendCount(count);
  }

  sendCount(count: number): void {
    this.write(`event: ${NOTIFICATION_STREAM_EVENT}\ndata: ${JSON.stringify({ count })}\n\n`);
  }

  /** A comment line: keeps proxies and the socket's inactivity timeout from closing the stream. */
  heartbeat(): void {
    this.write(': heartbeat\n\n');
  }

  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  end(): void {
    if (!this.closed) this.res.end();
  }

  private write(text: string): void {
    if (this.closed) return;
    if (this.res.writableLength > MAX_UNSENT_BYTES) {
      this.res.destroy();
      return;
    }
    this.res.write(text);
  }
}
