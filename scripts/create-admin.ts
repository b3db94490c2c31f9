// `npm run create-admin -- --email a@b.c --password secret`: adds another admin.
import { existsSync } from 'node:fs';
import { loadEnvFile } from 'node:process';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { AppError } from '../server/errors.ts';
import { createAdmin } from '../server/modules/users/admin-account.service.ts';

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
  const database = await openDatabase(config);
  await database.migrate();
  try {
    const admin = await createAdmin(database.db, {
      email: values.email,
      password: values.password,
    });
    console.log(`Admin ${admin.email} created.`);
  } finally {
    await database.close();
  }
} catch (err) {
  if (err instanceof ConfigError || err instanceof AppError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
