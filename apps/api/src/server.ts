// Starts the portal: configuration, then either one server process (the embedded database, or
// WEB_CONCURRENCY=1) or, on PostgreSQL, a supervisor that runs one server process per core
// (cluster.ts). A server process: DATA_DIR lock (embedded database), migrations, HTTP, workers.
import cluster from 'node:cluster';
import os from 'node:os';
import { ConfigError, loadConfig, type AppConfig } from './config.ts';
import { acquireDataDirLock, DataDirLockedError } from './lib/data-dir-lock.ts';

async function main() {
  const config = loadConfig();
  if (cluster.isPrimary && config.workers > 1) {
    // The supervisor loads nothing of the app: it only forks, watches and relays signals.
    const { superviseWorkers } = await import('./cluster.ts');
    superviseWorkers(config);
    return;
  }
  if (cluster.isPrimary && !config.databaseUrl && (config.requestedWorkers ?? 1) > 1) {
    console.warn(
      'WEB_CONCURRENCY is ignored without DATABASE_URL: the embedded database lives inside one process.',
    );
  }
  await runServer(config);
}

async function runServer(config: AppConfig) {
  const [{ buildApp }, { openDatabase }, { setHashConcurrency }] = await Promise.all([
    import('./app.ts'),
    import('./db/client.ts'),
    import('./modules/auth/index.ts'),
  ]);
  // As many argon2 runs at once as the machine has cores (passwords.ts): with one per core of its
  // own, a process sharing the machine with other work got less of it than libuv's 4 threads.
  setHashConcurrency(os.availableParallelism());
  // PGlite has no lock of its own; with PostgreSQL several instances may share one database.
  const lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
  const database = await openDatabase(config);
  // Every process migrates: under an advisory lock (db/client.ts), so processes and instances
  // starting together wait for the first, and the others find nothing to do.
  await database.migrate();
  const app = await buildApp(config, { database, startWorkers: true });
  // Lost database connections are logged with the app's logger; they never end the process.
  database.setLogger(app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await database.close();
    } finally {
      lock?.release();
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    app.log.error({ err }, 'could not listen');
    await database.close();
    lock?.release();
    process.exit(1);
  }
  const where = config.databaseUrl ? '' : ` in ${config.dataDir}`;
  const worker = cluster.isWorker
    ? `, worker ${cluster.worker?.id}; ${config.workers} processes in all`
    : '';
  app.log.info(
    `Portolan ${config.version} listening on ${config.host}:${config.port}; links use ${config.publicUrl} (database: ${database.engine}${where}${worker})`,
  );
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error('Portolan failed to start:', err);
  process.exit(1);
});
