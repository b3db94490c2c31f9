// `npm run create-admin -- --email a@b.c --password secret`: adds another admin.
// `npm run create-admin -- --reset-mfa a@b.c`: removes the account's two-factor authenticator
// apps (a lost phone); the user is e-mailed and the audit log names the operator.
// With the embedded database and a portal running on DATA_DIR, the running portal does it (so
// it takes effect at once); otherwise this process opens the database itself.
import { existsSync } from 'node:fs';
import { loadEnvFile } from 'node:process';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import {
  callOwner,
  DataDirBusyError,
  findOwner,
  OwnerOpError,
} from '../server/db/data-dir-owner.ts';
import { AppError } from '../server/errors.ts';
import { createAdmin, resetMfaByEmail } from '../server/modules/accounts/admin-account.service.ts';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    'reset-mfa': { type: 'string' },
  },
});
const resetEmail = values['reset-mfa'];
if (!resetEmail && (!values.email || !values.password)) {
  console.error(
    'Usage: npm run create-admin -- --email admin@example.com --password <at least 6>\n' +
      '       npm run create-admin -- --reset-mfa user@example.com',
  );
  process.exit(2);
}
if (existsSync('.env')) loadEnvFile('.env');

const said = (r: { email: string; removed: number }) =>
  r.removed === 0
    ? `${r.email} had no authenticator app; nothing removed.`
    : `Two-factor sign-in of ${r.email} reset: ${r.removed} authenticator app${r.removed === 1 ? '' : 's'} removed. They sign in with their password alone until they set one up again; they were e-mailed.`;

try {
  const config = loadConfig();
  const viaPortal = !config.databaseUrl && (await findOwner(config.dataDir));
  if (resetEmail) {
    if (viaPortal) {
      const r = (await callOwner(config.dataDir, 'reset-mfa', { email: resetEmail })) as {
        email: string;
        removed: number;
      };
      console.log(`${said(r)} (through the portal running on ${config.dataDir})`);
    } else {
      const database = await openDatabase(config);
      try {
        await database.underStartupLock(() => database.migrate());
        console.log(said(await resetMfaByEmail(database.db, resetEmail)));
      } finally {
        await database.close();
      }
    }
  } else {
    const params = { email: values.email!, password: values.password! };
    if (viaPortal) {
      const admin = (await callOwner(config.dataDir, 'create-admin', params)) as { email: string };
      console.log(
        `Admin ${admin.email} created (through the portal running on ${config.dataDir}).`,
      );
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
