// engine-parity: binary COPY as PostgreSQL writes it, read by both drivers
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, copyTextLines, CopyFormatError } from './copy-binary.ts';

/** A binary COPY of one text column, as PostgreSQL writes it. */
function binaryCopy(values: string[], extension = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(0, 0);
  header.writeUInt32BE(extension.length, 4);
  const tuples = values.map((v) => {
    const text = Buffer.from(v, 'utf8');
    const head = Buffer.alloc(6);
    head.writeInt16BE(1, 0);
    head.writeInt32BE(text.length, 2);
    return Buffer.concat([head, text]);
  });
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  return Buffer.concat([
    Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
    header,
    extension,
    ...tuples,
    trailer,
  ]);
}

async function* pieces(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function read(source: AsyncIterable<Buffer>, lineEnd = '\r\n') {
  const out: Buffer[] = [];
  for await (const chunk of copyTextLines(source, Buffer.from(lineEnd))) out.push(chunk);
  return out;
}

describe('reading a binary COPY of one text column', () => {
  const values = ['id,created', 'ä,"quoted ""x"""', '', '😀 emoji', 'a\nb'];
  const expected = values.map((v) => `${v}\r\n`).join('');

  it('writes each value and a line end, whatever the pieces the socket delivers', async () => {
    const bytes = binaryCopy(values, Buffer.from('ext'));
    for (const size of [1, 2, 3, 5, 7, 19, 64, bytes.length]) {
      const out = await read(pieces(bytes, size));
      expect(Buffer.concat(out).toString('utf8'), `pieces of ${size}`).toBe(expected);
    }
  });

  it('sends chunks of bounded size, and a line longer than a chunk whole', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `row ${i} ${'x'.repeat(40)}`);
    const long = 'y'.repeat(CHUNK_BYTES * 2);
    const out = await read(pieces(binaryCopy([...many, long, 'end']), 4096), '\n');
    expect(Buffer.concat(out).toString()).toBe(
      [...many, long, 'end'].map((v) => `${v}\n`).join(''),
    );
    for (const chunk of out) {
      if (!chunk.includes(long.slice(0, 100)))
        expect(chunk.length).toBeLessThanOrEqual(CHUNK_BYTES);
    }
  });

  it('writes nothing for no rows', async () => {
    expect(await read(pieces(binaryCopy([]), 3))).toEqual([]);
  });

  it('refuses what is not a binary COPY of one column, or ends early', async () => {
    await expect(read(pieces(Buffer.from('id,created\r\n'.repeat(3)), 8))).rejects.toThrow(
      CopyFormatError,
    );
    const whole = binaryCopy(['a', 'b']);
    await expect(read(pieces(whole.subarray(0, whole.length - 4), 5))).rejects.toThrow(
      /ended early/,
    );
    await expect(read(pieces(whole.subarray(0, whole.length - 2), 5))).rejects.toThrow(
      /ended early/,
    );
    const twoColumns = Buffer.from(whole);
    twoColumns.writeInt16BE(2, 19);
    await expect(read(pieces(twoColumns, 64))).rejects.toThrow(/one column/);
  });
});
