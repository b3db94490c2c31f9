// `npm run backup [-- --out FILE] [--include-files]`: one .tar.gz with a consistent SQL dump of
// the database, the stored files and a manifest. Works while the portal runs: on the embedded
// database the running portal takes the snapshot; on PostgreSQL pg_dump reads one snapshot.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadEnvFile } from 'node:process';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.ts';
import { DataDirBusyError, OwnerOpError } from '../server/db/data-dir-owner.ts';
import { defaultBackupPath, writeBackup } from '../server/ops/backup.ts';
import { exitOnError } from './exit-on-error.ts';

const USAGE = `Usage: npm run backup [-- --out FILE] [--include-files]
  --out FILE        where to write the .tar.gz (default ./backups/portal-<UTC time>.tar.gz)
  --include-files   with S3 storage: copy the objects into the backup (else they stay in the bucket)`;

let values: { out?: string; 'include-files'?: boolean; help?: boolean };
try {
  values = parseArgs({
    options: {
      out: { type: 'string' },
      'include-files': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (existsSync('.env')) loadEnvFile('.env');
/** Relative to here when the file is below the working directory, else absolute. */
const shown = (file: string) => {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
};
const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
try {
  const config = loadConfig();
  const out = values.out ? path.resolve(values.out) : defaultBackupPath();
  const result = await writeBackup({
    config,
    out,
    includeFiles: values['include-files'],
    onProgress: (line) => console.log(`  ${line}`),
  });
  const m = result.manifest;
  const rows = Object.values(m.database.tables).reduce((a, b) => a + b, 0);
  console.log(
    [
      '',
      `  Backup written: ${result.file} (${mb(result.bytes)}, ${result.seconds.toFixed(1)} s)`,
      `    database  ${m.source.database === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}, snapshot taken by ${result.via}: ${Object.keys(m.database.tables).length} tables, ${rows.toLocaleString('en-US')} rows, migration ${m.migration.latest ?? 'none'}`,
      m.files.included
        ? `    files     ${m.files.count} (${mb(m.files.bytes)}) with SHA-256 checksums`
        : `    files     ${m.files.count} objects stay in S3 bucket ${m.source.bucket} (pass --include-files to copy them)`,
      `  Check it: DATA_DIR=./restore-check npm run restore -- ${shown(result.file)}`,
      '',
    ].join('\n'),
  );
  process.exit(0);
} catch (err) {
  exitOnError(err, [ConfigError, OwnerOpError, DataDirBusyError], 'Backup failed', 'Backup failed');
}
