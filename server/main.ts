import { existsSync } from 'node:fs';
import { loadEnvFile } from 'node:process';
// Only light imports up here: a refused second start must answer at once, so the app is
// loaded after the data folder check.
import { DataDirBusyError, exitIfDataDirHeld } from './ops/data-dir-owner.ts';
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
  const { ensureFirstAdmin } = await import('./modules/users/admin-account.service.ts');
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
    return ensureFirstAdmin(database.db, {
      email: config.adminEmail,
      password: config.adminPassword,
    });
  });

  const app = await buildApp({ config, database, webRoot: config.webRoot });
  await app.listen({ port: config.port, host: config.host });
  // Other commands on this data folder (create-admin, demo, backup) now go through this process.
  database.owner?.serve(ownerOps({ database, storage: app.storage, config }));

  const lines = [
    '',
    `  Portal ready at ${config.publicUrl}`,
    `  Database: ${database.description}`,
    `  Files:    ${config.s3 ? `S3 bucket ${config.s3.bucket}` : `${config.dataDir}/storage`}`,
    `  Mail:     ${config.smtpUrl ? `SMTP ${new URL(config.smtpUrl).host}` : `dev mailbox at ${config.publicUrl}/dev/mail`}`,
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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000);
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
