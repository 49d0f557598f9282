// Reads PostgreSQL's binary COPY format (https://www.postgresql.org/docs/current/sql-copy.html,
// "Binary Format") for a query of one text column, and writes each value followed by a line end,
// in chunks of about CHUNK_BYTES. Values are copied byte for byte from the socket's buffers into
// the chunk: no string and no object per row.
import type { Readable } from 'node:stream';

/** The signature every binary COPY starts with, before the flags and the header extension. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER_BYTES = SIGNATURE.length + 8;
export const CHUNK_BYTES = 64 * 1024;

export class CopyFormatError extends Error {}

export async function* copyTextLines(
  copy: AsyncIterable<Buffer> | Readable,
  lineEnd: Buffer,
): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  let headerRead = false;
  let ended = false;
  let out = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;

  const append = (bytes: Buffer) => {
    bytes.copy(out, used);
    used += bytes.length;
  };

  for await (const piece of copy as AsyncIterable<Buffer>) {
    const buf = pending.length > 0 ? Buffer.concat([pending, piece]) : piece;
    let at = 0;
    if (!headerRead) {
      if (buf.length < HEADER_BYTES) {
        pending = buf;
        continue;
      }
      if (!buf.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
        throw new CopyFormatError('not a binary COPY stream');
      }
      const extension = buf.readUInt32BE(SIGNATURE.length + 4);
      if (buf.length < HEADER_BYTES + extension) {
        pending = buf;
        continue;
      }
      at = HEADER_BYTES + extension;
      headerRead = true;
    }
    for (;;) {
      if (buf.length - at < 2) break;
      const fields = buf.readInt16BE(at);
      if (fields === -1) {
        ended = true; // the trailer: nothing follows
        at = buf.length;
        break;
      }
      if (fields !== 1) throw new CopyFormatError(`expected one column, got ${fields}`);
      if (buf.length - at < 6) break;
      const size = buf.readInt32BE(at + 2);
      if (size < 0) throw new CopyFormatError('a line is NULL');
      if (buf.length - at < 6 + size) break;
      const value = buf.subarray(at + 6, at + 6 + size);
      at += 6 + size;
      if (used + value.length + lineEnd.length > out.length) {
        // The chunk is full: send it, and start the next one with this line.
        if (used > 0) yield out.subarray(0, used);
        out = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, value.length + lineEnd.length));
        used = 0;
      }
      append(value);
      append(lineEnd);
    }
    pending = at < buf.length ? Buffer.from(buf.subarray(at)) : Buffer.alloc(0);
    if (used >= CHUNK_BYTES / 2) {
      yield out.subarray(0, used);
      out = Buffer.allocUnsafe(CHUNK_BYTES);
      used = 0;
    }
  }
  if (!ended || pending.length > 0) throw new CopyFormatError('the COPY stream ended early');
  if (used > 0) yield out.subarray(0, used);
}
