import { existsSync } from 'node:fs';
import { loadEnvFile } from 'node:process';
// Only light imports up here: a refused second start must answer at once, so the app is
// loaded after the data folder check.
import { DataDirBusyError, exitIfDataDirHeld } from './db/data-dir-owner.ts';
import { startupFailure } from './startup-failure.ts';

/** Reads config, migrates, seeds the first admin, listens, and closes gracefully on SIGTERM. */
async function main() {
  // A .env file in the working directory is read when present; real environment variables win.
  if (existsSync('.env')) loadEnvFile('.env');
  // One portal per embedded data folder: refuse before anything is read or written there.
  await exitIfDataDirHeld();
  const { ConfigError, loadConfig } = await import('./config.ts');
  const { openDatabase } = await import('./db/client.ts');
  const { buildApp } = await import('./app.ts');
  const { ownerOps } = await import('./ops/owner-ops.ts');
  const { ensureSettings } = await import('./db/settings.ts');
  const { ensureFirstAdmin } = await import('./modules/accounts/index.ts');
  const { adoptSharedSecrets, registerHeartbeat } = await import('./ops/instances.ts');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }

  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(config);
  } catch (err) {
    if (err instanceof DataDirBusyError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // Instances started together on one database take turns: the first migrates and creates the
  // admin, the others find both done.
  const firstAdmin = await database.underStartupLock(async () => {
    await database.migrate();
    await ensureSettings(database.db);
    // With PostgreSQL, generated secrets are the first instance's, shared through the database.
    config = await adoptSharedSecrets(database, config);
    return ensureFirstAdmin(database.db, {
      email: config.adminEmail,
      password: config.adminPassword,
    });
  });

  const app = await buildApp({ config, database, webRoot: config.webRoot });

  // Who else serves this database: files on this machine's disk are then not seen by them.
  const localFiles = !config.s3;
  let warnedLocalFiles = false;
  const warnLocalFiles = (others: { host: string; pid: number }[]) => {
    if (!localFiles || warnedLocalFiles || others.length === 0) return;
    warnedLocalFiles = true;
    app.log.warn(
      { others: others.map((o) => `${o.host}:${o.pid}`) },
      `${others.length} other instance(s) use this database but files are stored on this machine's disk (${config.dataDir}/storage): a file uploaded through one instance is missing on the others. Set S3_BUCKET, or point every instance's DATA_DIR storage at one shared folder.`,
    );
  };
  // A job of the app: it beats from the start and removes its row on close.
  if (database.kind === 'postgres') {
    registerHeartbeat(app, { storage: localFiles ? 'local' : 's3', onBeat: warnLocalFiles });
  }

  await app.listen({ port: config.port, host: config.host });
  // Other commands on this data folder (create-admin, demo, backup) now go through this process.
  database.owner?.serve(ownerOps({ database, storage: app.storage, config }));

  const lines = [
    '',
    `  Portal ready at ${config.publicUrl}`,
    `  Database: ${database.description}`,
    `  Files:    ${config.s3 ? `S3 bucket ${config.s3.bucket}` : `${config.dataDir}/storage (local disk)`}`,
    `  Mail:     ${config.smtpUrl ? `SMTP ${new URL(config.smtpUrl).host}` : `dev mailbox at ${config.publicUrl}/dev/mail`}`,
    `  Limits:   ${config.redisUrl ? `Redis at ${new URL(config.redisUrl).host} (shared by all instances)` : "this instance's memory"}`,
  ];
  if (firstAdmin) {
    lines.push(
      '',
      '  First start: an admin account was created.',
      `    e-mail:   ${firstAdmin.email}`,
      // A password the operator chose is never echoed into logs; a generated one is shown once.
      firstAdmin.generated
        ? `    password: ${firstAdmin.password}   (generated; shown only this once)`
        : '    password: the one set in ADMIN_PASSWORD',
    );
  }
  console.log(`${lines.join('\n')}\n`);

  // SIGTERM/SIGINT: drain (readyz 503, the rest still served) for SHUTDOWN_DRAIN_SECONDS, then
  // stop accepting, finish in-flight requests, close idle keep-alives, stop the workers, exit.
  // A second signal exits at once.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    app.lifecycle.draining = true;
    const drainMs = config.shutdownDrainSeconds * 1000;
    app.log.info(
      { signal, drainSeconds: config.shutdownDrainSeconds },
      'shutting down: /readyz answers 503 while draining; a second signal exits at once',
    );
    if (drainMs > 0) await new Promise((r) => setTimeout(r, drainMs));
    const force = setTimeout(() => {
      app.log.error('requests still in flight after 15 s: exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(`Start-up failed: ${startupFailure(err)}`);
  process.exit(1);
});
