// The Django REST Framework reference (bench/reference/) under gunicorn, 2 sync workers as the
// issue measured it, on the same PostgreSQL database and JWT secret as our server, so a token of
// ours is a token of its own. It needs Debian's Django, DRF, gunicorn, psycopg2 and PyJWT (and
// Debian's python3, not whatever python3 is first on PATH).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../lib/bench.ts';
import { ROOT } from '../lib/paths.ts';
import { ensureDebianPackages } from './debian.ts';

const PYTHON = '/usr/bin/python3';
const GUNICORN = '/usr/bin/gunicorn';
const PROJECT = path.join(ROOT, 'bench', 'reference');
const PACKAGES = [
  'python3-django',
  'python3-djangorestframework',
  'gunicorn',
  'python3-psycopg2',
  'python3-jwt',
];
export const REFERENCE_WORKERS = 2;

const installed = () => {
  if (!fs.existsSync(GUNICORN) || !fs.existsSync(PYTHON)) return false;
  try {
    execFileSync(PYTHON, ['-c', 'import django, rest_framework, psycopg2, jwt'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
};

export const ensureReference = () =>
  ensureDebianPackages('the Django REST reference', PACKAGES, installed);

export interface ReferenceServer {
  base: string;
  stop(): Promise<void>;
}

export async function startReference(env: {
  databaseUrl: string;
  jwtSecret: string;
  appProfile?: string;
}): Promise<ReferenceServer> {
  const port = await freePort();
  const child = spawn(
    GUNICORN,
    [
      '--workers',
      String(REFERENCE_WORKERS),
      '--bind',
      `127.0.0.1:${port}`,
      '--log-level',
      'warning',
      '--chdir',
      PROJECT,
      'reference.wsgi:application',
    ],
    {
      env: {
        PATH: process.env.PATH,
        REFERENCE_DATABASE_URL: env.databaseUrl,
        JWT_SECRET: env.jwtSecret,
        APP_PROFILE: env.appProfile ?? 'transit',
        INTERNAL_EMAIL_DOMAINS: process.env.INTERNAL_EMAIL_DOMAINS ?? '',
        CUSTOM_TEMPLATE_EMAIL_DOMAINS: process.env.CUSTOM_TEMPLATE_EMAIL_DOMAINS ?? '',
        PYTHONDONTWRITEBYTECODE: '1',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; ; i++) {
    // Any answer (401 without a token) says a worker is up.
    const up = await fetch(`${base}/v1/rest-auth/user/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (i > 300 || child.exitCode !== null) {
      await stop();
      throw new Error('the Django REST reference did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, stop };
}
