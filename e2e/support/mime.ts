// A small MIME reader for the messages the SMTP capture receives: headers (unfolded, RFC 2047
// encoded words decoded), multipart bodies (nested), quoted-printable and base64 transfer
// encodings, and charsets. Enough to read what nodemailer sends; not a general mail parser.

export interface ParsedMail {
  from: string;
  to: string[];
  subject: string;
  date?: string;
  messageId?: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

function splitHeaderAndBody(raw: Buffer): { head: string; body: Buffer } {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  let end: number;
  let sep: number;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) [end, sep] = [crlf, 4];
  else if (lf !== -1) [end, sep] = [lf, 2];
  else return { head: raw.toString('latin1'), body: Buffer.alloc(0) };
  return { head: raw.subarray(0, end).toString('latin1'), body: raw.subarray(end + sep) };
}

/** Header names lower-cased; folded lines joined; a repeated header keeps its first value. */
export function parseHeaders(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** A header parameter such as the boundary or charset of Content-Type. */
export function headerParam(value: string | undefined, param: string): string | undefined {
  if (!value) return undefined;
  const re = new RegExp(`(?:^|;)\\s*${param}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, 'i');
  const m = re.exec(value);
  return m ? (m[1] ?? m[2]) : undefined;
}

function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** Quoted-printable to bytes (soft line breaks removed, =XX decoded). */
export function decodeQuotedPrintable(input: string): Buffer {
  const text = input.replace(/[ \t]+(\r?\n)/g, '$1').replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const hex = text.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      // Latin-1 keeps 8-bit bytes as they came.
      bytes.push(ch.charCodeAt(0) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (=?utf-8?Q?...?= and =?utf-8?B?...?=) in a header value. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(
      /=\?([^?*]+)(?:\*[^?]*)?\?([QqBb])\?([^?]*)\?=/g,
      (_m, charset: string, enc: string, data: string) => {
        const bytes =
          enc.toUpperCase() === 'B'
            ? Buffer.from(data, 'base64')
            : decodeQuotedPrintable(data.replace(/_/g, ' '));
        return decodeCharset(bytes, charset);
      },
    );
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const charset = headerParam(part.headers['content-type'], 'charset');
  let bytes: Buffer;
  if (encoding === 'base64')
    bytes = Buffer.from(part.body.toString('latin1').replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable')
    bytes = decodeQuotedPrintable(part.body.toString('latin1'));
  else bytes = part.body;
  return decodeCharset(bytes, charset).replace(/\r\n/g, '\n');
}

function splitMultipart(body: Buffer, boundary: string): Buffer[] {
  const text = body.toString('latin1');
  const delimiter = `--${boundary}`;
  const parts: Buffer[] = [];
  const lines = text.split(/\r?\n/);
  let current: string[] | undefined;
  for (const line of lines) {
    if (line.startsWith(delimiter)) {
      if (current) parts.push(Buffer.from(current.join('\r\n'), 'latin1'));
      if (line.startsWith(`${delimiter}--`)) return parts;
      current = [];
    } else if (current) {
      current.push(line);
    }
  }
  if (current) parts.push(Buffer.from(current.join('\r\n'), 'latin1'));
  return parts;
}

function leafParts(part: Part, out: Part[] = []): Part[] {
  const type = part.headers['content-type'] ?? 'text/plain';
  const boundary = headerParam(type, 'boundary');
  if (/^multipart\//i.test(type) && boundary) {
    for (const raw of splitMultipart(part.body, boundary)) {
      const { head, body } = splitHeaderAndBody(raw);
      leafParts({ headers: parseHeaders(head), body }, out);
    }
  } else {
    out.push(part);
  }
  return out;
}

function addresses(value: string | undefined): string[] {
  if (!value) return [];
  const found = decodeEncodedWords(value).match(/[^\s<>,;"]+@[^\s<>,;"]+/g);
  return (found ?? []).map((a) => a.toLowerCase());
}

/** Parse one raw RFC 5322 message. */
export function parseMail(raw: Buffer | string): ParsedMail {
  const buffer = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  const { head, body } = splitHeaderAndBody(buffer);
  const headers = parseHeaders(head);
  let text = '';
  let html = '';
  for (const part of leafParts({ headers, body })) {
    const type = (part.headers['content-type'] ?? 'text/plain').toLowerCase();
    const attachment = /^attachment/i.test(part.headers['content-disposition'] ?? '');
    if (attachment) continue;
    if (type.startsWith('text/plain') && !text) text = decodeBody(part);
    else if (type.startsWith('text/html') && !html) html = decodeBody(part);
  }
  return {
    from: addresses(headers.from)[0] ?? '',
    to: [...addresses(headers.to), ...addresses(headers.cc)],
    subject: decodeEncodedWords(headers.subject ?? ''),
    date: headers.date,
    messageId: headers['message-id'],
    text,
    html,
    headers: Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, decodeEncodedWords(v)]),
    ),
  };
}
