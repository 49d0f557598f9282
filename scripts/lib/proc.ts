// Child processes: run to completion, forward termination signals exactly once, prefix output.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createInterface } from 'node:readline';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface Supervised {
  child: ChildProcess;
  /** Resolves with the exit code (128 + signal number when killed by a signal). */
  exited: Promise<number>;
}

export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const signals: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return 128 + (signal ? (signals[signal] ?? 1) : 1);
}

/** Spawn a process and resolve with its exit code; a failure to spawn rejects. */
export function start(cmd: string, args: string[], options: SpawnOptions = {}): Supervised {
  const child = spawn(cmd, args, { stdio: 'inherit', ...options });
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(exitCodeOf(code, signal)));
  });
  return { child, exited };
}

/** Run a command with inherited stdio and resolve with its exit code. */
export function run(cmd: string, args: string[], options: SpawnOptions = {}): Promise<number> {
  return start(cmd, args, options).exited;
}

/**
 * Relay SIGINT/SIGTERM/SIGHUP received by this process to the given children (which should be
 * spawned `detached`, in their own process group, so that a Ctrl-C in the terminal reaches them
 * only through us and only once). npm and the terminal may both deliver the same Ctrl-C to us: a
 * repeat within half a second is dropped; a later one is passed on (a second Ctrl-C may force).
 * Returns a function that removes the handlers.
 */
export function relaySignals(
  children: () => ChildProcess[],
  onSignal?: (s: NodeJS.Signals) => void,
) {
  let last = 0;
  const handler = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (now - last < 500) return;
    last = now;
    onSignal?.(signal);
    for (const child of children()) {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          child.kill(signal);
        } catch {
          // already gone
        }
      }
    }
  };
  for (const s of FORWARDED) process.on(s, handler);
  return () => {
    for (const s of FORWARDED) process.off(s, handler);
  };
}

/**
 * Calls `onGone` once when the process that started us ends. `npm start` runs us under
 * `sh -c`: a signal npm passes on (its own SIGTERM) may end that shell and leave us running
 * with the server; npm ended by SIGKILL leaves us likewise. Either way our parent changes.
 */
export function whenOrphaned(onGone: () => void, everyMs = 200): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Run a command with its stdout and stderr kept (interleaved, in order of arrival) instead of
 * shown: for work that runs beside another command whose output is on the terminal.
 */
export function runCaptured(
  cmd: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<{ code: number; output: string }> {
  const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
  // 'close', not 'exit': the output may still be arriving when the process has exited.
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) =>
      resolve({ code: exitCodeOf(code, signal), output: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

/** Copy a child's stdout and stderr to ours, each line prefixed (e.g. "[api] "). */
export function prefixOutput(child: ChildProcess, prefix: string): void {
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    if (!stream) continue;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      out.write(`${prefix}${line}\n`);
    });
  }
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
