// `npm run dev`: the API under `node --watch` and the Vite dev server (port 5173, which proxies
// API calls to the API) side by side, output prefixed; Ctrl-C stops both.
import type { ChildProcess } from 'node:child_process';
import { binScript, ROOT, SERVER_ENTRY, WEB_DIR } from './lib/paths.ts';
import { prefixOutput, relaySignals, start, whenOrphaned, type Supervised } from './lib/proc.ts';

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, text: string) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);

interface Service {
  name: string;
  prefix: string;
  proc: Supervised;
}

function launch(name: string, color: number, cmd: string, args: string[], cwd: string): Service {
  const proc = start(cmd, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: useColor ? '1' : '0' },
  });
  const prefix = paint(color, `[${name}] `);
  prefixOutput(proc.child, prefix);
  return { name, prefix, proc };
}

const services: Service[] = [
  launch('api', 36, process.execPath, ['--watch', SERVER_ENTRY], ROOT),
  launch(
    'web',
    35,
    process.execPath,
    [binScript('vite', 'vite', WEB_DIR), '--port', '5173'],
    WEB_DIR,
  ),
];

let stopping = false;
const children = (): ChildProcess[] => services.map((s) => s.proc.child);
const stopAll = (signal: NodeJS.Signals = 'SIGTERM') => {
  for (const child of children()) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
};
relaySignals(children, () => {
  stopping = true;
});
process.on('exit', () => stopAll());
// npm gone without passing its signal to us (see whenOrphaned): stop both as for SIGTERM.
whenOrphaned(() => {
  stopping = true;
  stopAll();
});

console.log(
  paint(
    1,
    '[dev] API on http://localhost:3000 (node --watch), web on http://localhost:5173 (Vite). Ctrl-C stops both.',
  ),
);

// When one of them ends on its own, stop the other too and exit with the first failure.
const codes = await Promise.all(
  services.map(async (s) => {
    const code = await s.proc.exited.catch((error: unknown) => {
      console.error(`${s.prefix}failed to start: ${String(error)}`);
      return 1;
    });
    if (!stopping) {
      stopping = true;
      console.error(`${s.prefix}exited with code ${code}; stopping the others`);
      stopAll();
    }
    return code;
  }),
);
process.exitCode = codes.find((c) => c !== 0 && c !== 130 && c !== 143) ?? 0;
