import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throw-away PostgreSQL cluster of the test's own (initdb + pg_ctl from the machine's
 * PostgreSQL binaries), in a temporary directory, on a free port: a test can stop, start and
 * freeze it without touching any other database. initdb refuses to run as root, so as root the
 * binaries run as the `postgres` OS user and the directory belongs to that user.
 */

/** The bin directory of the newest PostgreSQL found (Debian layout first, then PATH). */
export function findPostgresBin(): string | null {
  const candidates: string[] = [];
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs
      .readdirSync(debian)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(debian, v, 'bin')));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(dir);
  return (
    candidates.find(
      (dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')),
    ) ?? null
  );
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class PgCluster {
  readonly port: number;
  readonly dir: string;
  private readonly bin: string;
  private readonly asRoot = process.getuid?.() === 0;

  private constructor(bin: string, dir: string, port: number) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
  }

  /** initdb a new cluster (trust authentication, user `postgres`) and start it. */
  static async create(bin: string): Promise<PgCluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-pg-'));
    const cluster = new PgCluster(bin, dir, await freePort());
    fs.mkdirSync(path.join(dir, 'sock'));
    if (cluster.asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      for (const p of [dir, path.join(dir, 'sock')]) fs.chownSync(p, uid, gid);
    }
    await cluster.run('initdb', [
      '-D',
      cluster.dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    await cluster.start();
    return cluster;
  }

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-k ${path.join(this.dir, 'sock')}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    await this.run('pg_ctl', [
      'start',
      '-w',
      '-t',
      '30',
      '-D',
      this.dataDir,
      '-l',
      path.join(this.dir, 'server.log'),
      '-o',
      options,
    ]);
  }

  /** `pg_ctl stop -m fast`: every connection is told 57P01 and closed, then the server exits. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.run('pg_ctl', ['stop', '-w', '-t', '30', '-D', this.dataDir, '-m', mode]);
  }

  /** The postmaster and every process it started (backends, checkpointer, …). */
  processes(): number[] {
    const pidFile = path.join(this.dataDir, 'postmaster.pid');
    const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    const children: number[] = [];
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        // pid (comm) state ppid …: comm may hold spaces, so read after the last ')'.
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === postmaster) children.push(Number(entry));
      } catch {
        // the process ended meanwhile
      }
    }
    return [postmaster, ...children];
  }

  /** SIGSTOP every process of the cluster: connections stay open but nothing answers. */
  freeze(): number[] {
    const pids = this.processes();
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    return pids;
  }

  thaw(pids: number[]): void {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone
      }
    }
  }

  log(): string {
    try {
      return fs.readFileSync(path.join(this.dir, 'server.log'), 'utf8');
    } catch {
      return '';
    }
  }

  async destroy(): Promise<void> {
    if (fs.existsSync(path.join(this.dataDir, 'postmaster.pid'))) {
      await this.stop('immediate').catch(() => {});
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Runs a PostgreSQL binary (as `postgres` when we are root); rejects with its output. */
  private run(tool: string, args: string[]): Promise<void> {
    const exe = path.join(this.bin, tool);
    const [command, argv] = this.asRoot
      ? ['runuser', ['-u', 'postgres', '--', exe, ...args]]
      : [exe, args];
    return new Promise((resolve, reject) => {
      // stdout/stderr are read but we wait for 'exit', not 'close': the server pg_ctl starts
      // must not keep us waiting on inherited pipes.
      const child = spawn(command, argv, { cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('error', reject);
      child.on('exit', (code) => {
        if (code === 0) resolve();
        else reject(new Error(`${tool} ${args.join(' ')} exited with ${code}:\n${output}`));
      });
    });
  }
}
