// Debian packages the bench needs beyond npm (wrk, the Django reference): installed with apt-get
// when missing and running as root, else the command to run is printed and the caller goes without.
import { execFileSync } from 'node:child_process';

export function ensureDebianPackages(what: string, packages: string[], present: () => boolean) {
  if (present()) return true;
  const command = `apt-get install -y ${packages.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.log(`  (${what} is missing: run \`${command}\` as root)`);
    return false;
  }
  console.log(`  (${what} is missing: ${command})`);
  const apt = (args: string[]) =>
    execFileSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    apt(['install', '-y', '-q', ...packages]);
  } catch {
    // A machine whose package lists were never fetched knows no package yet.
    try {
      apt(['update', '-q']);
      apt(['install', '-y', '-q', ...packages]);
    } catch {
      console.log(`  (${command} failed)`);
    }
  }
  return present();
}
