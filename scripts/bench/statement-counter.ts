// Counts the statements a server sends to PostgreSQL, from the wire: a TCP proxy in front of the
// database that reads the client's side of the protocol and counts each simple Query ('Q') and
// each Execute ('E') of the extended protocol (node-postgres sends Parse/Bind/Execute per
// parameterised statement). pg_stat_statements is not assumed to be installed, and nothing of
// the server is changed or wrapped.
import net from 'node:net';

/** Startup-phase messages have no type byte: SSLRequest, GSSENCRequest, CancelRequest, Startup. */
const UNTYPED_REQUESTS = new Set([80877103, 80877104, 80877102]);

/** Splits one connection's client-to-server bytes into messages and counts the statements. */
function counterOf(onStatement: () => void) {
  let buffer: Buffer = Buffer.alloc(0);
  let startup = true;
  return (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      if (startup) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        // After SSLRequest/GSSENCRequest the client sends its startup message, untyped too.
        startup = UNTYPED_REQUESTS.has(buffer.readInt32BE(4));
        buffer = buffer.subarray(length);
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1) + 1;
      if (buffer.length < length) return;
      const type = String.fromCharCode(buffer[0]!);
      if (type === 'Q' || type === 'E') onStatement();
      buffer = buffer.subarray(length);
    }
  };
}

export interface StatementCounter {
  /** The proxy's address: put it in DATABASE_URL instead of the server's. */
  port: number;
  /** Statements counted so far, over every connection. */
  count(): number;
  close(): Promise<void>;
}

export async function startStatementCounter(target: {
  host: string;
  port: number;
}): Promise<StatementCounter> {
  let statements = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const count = counterOf(() => statements++);
    client.on('data', (chunk) => {
      count(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    count: () => statements,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => resolve());
      }),
  };
}
