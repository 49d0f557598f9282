// `npm start`: build the web app and bundle the server when either is missing or stale, then run
// the server (which also serves the web app) in the foreground until it stops; exit with its code.
import { existsSync } from 'node:fs';
import { ROOT } from './lib/paths.ts';
import { relaySignals, start, whenOrphaned } from './lib/proc.ts';
import { ensureServerBuild, SERVER_BUNDLE, SERVER_NODE_OPTIONS } from './lib/server-build.ts';
import { ensureWebBuild } from './lib/web-build.ts';

const log = (line: string) => console.log(`[start] ${line}`);

// A Ctrl-C during the build reaches npm and vite (same process group) and ends them; we then stop.
// WEB_DIST names a web build made elsewhere: it is served as it is, never built here.
if (!process.env.WEB_DIST && !(await ensureWebBuild(log))) process.exit(1);
if (!(await ensureServerBuild(log)) || !existsSync(SERVER_BUNDLE)) process.exit(1);

// The server runs in its own process group so that a Ctrl-C reaches it once, through us, and it
// can shut down gracefully (a second, later Ctrl-C is passed on too).
const server = start(
  process.execPath,
  [...SERVER_NODE_OPTIONS, SERVER_BUNDLE, ...process.argv.slice(2)],
  {
    cwd: ROOT,
    detached: true,
  },
);
relaySignals(() => [server.child]);
// npm gone without passing its signal to us (see whenOrphaned): stop the server as for SIGTERM.
whenOrphaned(() => {
  log('npm ended; stopping the server');
  if (server.child.exitCode === null && server.child.signalCode === null)
    server.child.kill('SIGTERM');
});
// If we die unexpectedly, do not leave the server running behind us.
process.on('exit', () => {
  if (server.child.exitCode === null && server.child.signalCode === null)
    server.child.kill('SIGTERM');
});
process.exitCode = await server.exited;
