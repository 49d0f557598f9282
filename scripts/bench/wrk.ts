// Load as `wrk -t2 -c20 -d10s` puts it (Debian's wrk): requests per second and the median latency
// of one URL, keep-alive connections, every thread and connection busy for the whole duration.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDebianPackages } from './debian.ts';

export interface LoadShape {
  threads: number;
  connections: number;
  /** wrk's duration: `10s`, `1m`. */
  duration: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  requests: number;
  /** Answers other than 2xx/3xx, and socket errors: a run with any is not a measurement. */
  failures: number;
  /** What they were: "3 non-2xx, 1 timeout". */
  failureKinds: string;
}

const hasWrk = () => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its version.
    return (err as { status?: number }).status === 1;
  }
};

export const ensureWrk = () => ensureDebianPackages('wrk', ['wrk'], hasWrk);

const MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** Parses wrk's report (with --latency). */
export function parseWrk(out: string): LoadResult {
  const number = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN);
  const p50 = /^\s*50%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = socket ? socket.slice(1).reduce((n, v) => n + Number(v), 0) : 0;
  const kinds = [
    [non2xx, 'non-2xx'],
    ...['connect', 'read', 'write', 'timeout'].map((kind, i) => [
      Number(socket?.[i + 1] ?? 0),
      kind,
    ]),
  ] as [number, string][];
  return {
    requestsPerSecond: number(/^Requests\/sec:\s+([\d.]+)/m),
    p50Ms: p50 ? Number(p50[1]) * MS[p50[2]!]! : NaN,
    requests: number(/^\s*(\d+) requests in /m),
    failures: non2xx + socketErrors,
    failureKinds: kinds
      .filter(([n]) => n > 0)
      .map(([n, kind]) => `${n} ${kind}`)
      .join(', '),
  };
}

/** Runs wrk against `url`; `lua` is the text of a wrk script (for a method, body or headers per request). */
export async function runWrk(
  url: string,
  shape: LoadShape,
  options: { headers?: Record<string, string>; lua?: string } = {},
): Promise<LoadResult> {
  const args = [
    `-t${shape.threads}`,
    `-c${shape.connections}`,
    `-d${shape.duration}`,
    '--latency',
    // A slow answer is measured as slow, not dropped as a failure (wrk's default is 2 s).
    '--timeout',
    '10s',
    ...Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
  ];
  let dir: string | undefined;
  if (options.lua) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-wrk-'));
    fs.writeFileSync(path.join(dir, 'script.lua'), options.lua);
    args.push('-s', path.join(dir, 'script.lua'));
  }
  try {
    const out = await new Promise<string>((resolve, reject) =>
      execFile('wrk', [...args, url], { encoding: 'utf8' }, (err, stdout, stderr) =>
        err ? reject(new Error(`wrk failed: ${stderr || err.message}`)) : resolve(stdout),
      ),
    );
    const result = parseWrk(out);
    if (!Number.isFinite(result.requestsPerSecond)) throw new Error(`wrk said:\n${out}`);
    return result;
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}
