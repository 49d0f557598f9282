// `npm start`: build the web app when apps/web/dist is missing or stale, then run the API server
// (which also serves the web app) in the foreground until it stops; exit with its code.
import { existsSync } from 'node:fs';
import { ROOT, SERVER_ENTRY } from './lib/paths.ts';
import { relaySignals, start } from './lib/proc.ts';
import { ensureWebBuild } from './lib/web-build.ts';

const log = (line: string) => console.log(`[start] ${line}`);

if (!existsSync(SERVER_ENTRY)) {
  console.error(`[start] ${SERVER_ENTRY} does not exist`);
  process.exit(1);
}

// A Ctrl-C during the build reaches npm and vite (same process group) and ends them; we then stop.
if (!(await ensureWebBuild(log))) process.exit(1);

// The server runs in its own process group so that a Ctrl-C reaches it once, through us, and it
// can shut down gracefully (a second, later Ctrl-C is passed on too).
const server = start(process.execPath, [SERVER_ENTRY, ...process.argv.slice(2)], {
  cwd: ROOT,
  detached: true,
});
relaySignals(() => [server.child]);
// If we die unexpectedly, do not leave the server running behind us.
process.on('exit', () => {
  if (server.child.exitCode === null && server.child.signalCode === null)
    server.child.kill('SIGTERM');
});
process.exitCode = await server.exited;
