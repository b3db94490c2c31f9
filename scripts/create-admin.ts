// `npm run create-admin -- --email a@b.c --password secret`: adds another admin. With the
// embedded database and a portal running on DATA_DIR, the running portal creates it (so the
// admin can sign in at once); otherwise this process opens the database itself.
import { existsSync } from 'node:fs';
import { loadEnvFile } from 'node:process';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { AppError } from '../server/errors.ts';
import { createAdmin } from '../server/modules/users/admin-account.service.ts';
import {
  callOwner,
  DataDirBusyError,
  findOwner,
  OwnerOpError,
} from '../server/ops/data-dir-owner.ts';

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' } },
});
if (!values.email || !values.password) {
  console.error('Usage: npm run create-admin -- --email admin@example.com --password <at least 6>');
  process.exit(2);
}
if (existsSync('.env')) loadEnvFile('.env');
try {
  const config = loadConfig();
  const params = { email: values.email, password: values.password };
  if (!config.databaseUrl && (await findOwner(config.dataDir))) {
    const admin = (await callOwner(config.dataDir, 'create-admin', params)) as { email: string };
    console.log(`Admin ${admin.email} created (through the portal running on ${config.dataDir}).`);
  } else {
    const database = await openDatabase(config);
    try {
      // Not while a starting portal migrates the same database.
      await database.underStartupLock(() => database.migrate());
      const admin = await createAdmin(database.db, params);
      console.log(`Admin ${admin.email} created.`);
    } finally {
      await database.close();
    }
  }
} catch (err) {
  if (
    err instanceof ConfigError ||
    err instanceof AppError ||
    err instanceof OwnerOpError ||
    err instanceof DataDirBusyError
  ) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
