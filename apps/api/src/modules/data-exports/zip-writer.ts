import { Zip, ZipDeflate, ZipPassThrough, strToU8, type ZipInputFile } from 'fflate';

/** Text is handed to the compressor in pieces of about this many characters. */
const PIECE = 64 * 1024;

/**
 * A zip archive written as it is made (fflate's streaming Zip): one file at a time, each pushed
 * in pieces, every piece of output awaited by `write` before the next. Memory stays at a piece or
 * two whatever the archive's size.
 */
export class ZipWriter {
  private readonly zip: Zip;
  private readonly write: (chunk: Uint8Array) => Promise<void>;
  private readonly mtime: Date;
  private out: Uint8Array[] = [];
  private failure: Error | null = null;

  constructor(write: (chunk: Uint8Array) => Promise<void>, mtime: Date) {
    this.write = write;
    this.mtime = mtime;
    this.zip = new Zip((err, chunk) => {
      if (err) this.failure = err;
      else if (chunk.length) this.out.push(chunk);
    });
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const chunks = this.out;
    this.out = [];
    for (const chunk of chunks) await this.write(chunk);
  }

  private open<T extends ZipInputFile>(file: T): T {
    file.mtime = this.mtime;
    this.zip.add(file);
    return file;
  }

  /** A text file, compressed. */
  async text(name: string, text: string): Promise<void> {
    await this.lines(name, [text]);
  }

  /** A JSON document, pretty-printed, compressed. */
  async json(name: string, value: unknown): Promise<void> {
    await this.text(name, `${JSON.stringify(value, null, 2)}\n`);
  }

  /** A text file from pieces that may come slowly (rows read in batches), compressed. */
  async lines(name: string, pieces: Iterable<string> | AsyncIterable<string>): Promise<void> {
    const file = this.open(new ZipDeflate(name, { level: 6 }));
    let buffer = '';
    for await (const piece of pieces) {
      buffer += piece;
      if (buffer.length >= PIECE) {
        file.push(strToU8(buffer));
        buffer = '';
        await this.flush();
      }
    }
    file.push(strToU8(buffer), true);
    await this.flush();
  }

  /** A file copied as it is (images are compressed already), from a stream of bytes. */
  async binary(name: string, body: AsyncIterable<Uint8Array | string>): Promise<void> {
    const file = this.open(new ZipPassThrough(name));
    for await (const chunk of body) {
      file.push(typeof chunk === 'string' ? strToU8(chunk) : chunk);
      await this.flush();
    }
    file.push(new Uint8Array(0), true);
    await this.flush();
  }

  /** Writes the archive's directory: call once, after the last file. */
  async end(): Promise<void> {
    this.zip.end();
    await this.flush();
  }
}
