// Starts the portal: configuration, DATA_DIR lock (embedded database), migrations, HTTP, workers.
import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { acquireDataDirLock, DataDirLockedError } from './lib/data-dir-lock.ts';

async function main() {
  const config = loadConfig();
  // PGlite has no lock of its own; with PostgreSQL several instances may share one database.
  const lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
  const database = await openDatabase(config);
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
  app.log.info(
    `Portolan ${config.version} on ${config.publicUrl} (database: ${database.engine}${config.databaseUrl ? '' : ` in ${config.dataDir}`})`,
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
