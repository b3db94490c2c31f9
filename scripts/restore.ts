// `npm run restore -- FILE [--force]`: loads a backup into the configured target (the embedded
// database under DATA_DIR, or the PostgreSQL database of DATABASE_URL) and its files into the
// configured storage. The target must be empty unless --force. The next start migrates a backup
// of an older schema forward.
import { existsSync } from 'node:fs';
import { loadEnvFile } from 'node:process';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.ts';
import { DataDirBusyError } from '../server/db/data-dir-owner.ts';
import { RestoreRefusedError, restoreBackup } from '../server/ops/restore.ts';
import { exitOnError } from './exit-on-error.ts';

const USAGE = `Usage: npm run restore -- FILE [--force]
Restores a backup written by npm run backup into an empty target:
  the embedded database under DATA_DIR (default ./data), or the PostgreSQL database of DATABASE_URL,
  and the files into DATA_DIR/storage (or S3_BUCKET).
  --force   restore into a target that already has data (the old embedded database is moved aside
            to pgdata.before-restore-<time>; a PostgreSQL database is emptied first; stored files
            that differ from the backup's are replaced). Files equal to the backup's are kept.`;

let parsed: { values: { force?: boolean; help?: boolean }; positionals: string[] };
try {
  parsed = parseArgs({
    options: { force: { type: 'boolean' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (parsed.values.help || parsed.positionals.length !== 1) {
  console.log(USAGE);
  process.exit(parsed.values.help ? 0 : 2);
}
if (existsSync('.env')) loadEnvFile('.env');
try {
  const config = loadConfig();
  const r = await restoreBackup({
    config,
    file: parsed.positionals[0]!,
    force: parsed.values.force,
    onProgress: (line) => console.log(`  ${line}`),
  });
  const lines = [
    '',
    `  Restored into ${r.target} in ${r.seconds.toFixed(1)} s:`,
    `    database  ${r.tables} tables, ${r.rows.toLocaleString('en-US')} rows (every count as in the manifest), migration ${r.migration.latest ?? 'none'}`,
    r.files.leftInBucket
      ? `    files     ${r.files.leftInBucket} objects were not in the backup: they stay in the S3 bucket the backup names`
      : `    files     ${r.files.restored} (${(r.files.bytes / 1048576).toFixed(1)} MB), every checksum as in the manifest`,
    ...r.movedAside.map((p) => `    moved aside: ${p}`),
    '  Start the portal with the same settings (npm start); it applies newer migrations on start.',
    '',
  ];
  console.log(lines.join('\n'));
  process.exit(0);
} catch (err) {
  exitOnError(
    err,
    [ConfigError, RestoreRefusedError, DataDirBusyError],
    'Restore refused',
    'Restore failed',
  );
}
