// `npm run backup`: one .tar.gz holding database.sql (a consistent plain SQL dump), every stored
// file under files/, and manifest.json (what is inside, with row counts and checksums).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { callOwner, findOwner } from '../db/data-dir-owner.ts';
import { createLocalDriver } from '../storage/local.ts';
import { createS3Client, createS3Driver } from '../storage/s3.ts';
import { type Migration, type Snapshot, snapshotPglite, snapshotPostgres } from './snapshot.ts';
import { TarGzWriter } from './tar.ts';

export const MANIFEST_FORMAT = 'leads-portal-backup';
export const DUMP_ENTRY = 'database.sql';
export const MANIFEST_ENTRY = 'manifest.json';
export const FILES_PREFIX = 'files/';

export type FileEntry = { key: string; bytes: number; sha256: string };

export type Manifest = {
  format: typeof MANIFEST_FORMAT;
  formatVersion: 1;
  createdAt: string;
  portalVersion: string;
  source: { database: 'pglite' | 'postgres'; files: 'local' | 's3'; bucket?: string };
  migration: Migration;
  database: { entry: string; bytes: number; sha256: string; tables: Record<string, number> };
  files: {
    /** False: the objects stay in the S3 bucket and are not in this archive. */
    included: boolean;
    count: number;
    bytes: number;
    list: FileEntry[];
  };
};

export function portalVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export function defaultBackupPath(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return path.resolve('backups', `portal-${stamp}.tar.gz`);
}

/** The snapshot, taken by whoever may: the running owner, this process, or PostgreSQL. */
export async function takeSnapshot(
  config: Config,
  onProgress: (line: string) => void,
): Promise<Snapshot & { via: string }> {
  if (config.databaseUrl) {
    return { ...(await snapshotPostgres(config.databaseUrl, onProgress)), via: 'PostgreSQL' };
  }
  if (await findOwner(config.dataDir)) {
    const chunks: Buffer[] = [];
    const result = (await callOwner(
      config.dataDir,
      'backup-snapshot',
      {},
      { onProgress: (l) => onProgress(`portal: ${l}`), onChunk: (c) => chunks.push(c) },
    )) as { counts: Record<string, number>; migration: Migration };
    return {
      sql: Buffer.concat(chunks).toString('utf8'),
      counts: result.counts,
      migration: result.migration,
      via: 'the running portal',
    };
  }
  const database = await openDatabase(config);
  try {
    return { ...(await snapshotPglite(database.pglite!, onProgress)), via: 'the data folder' };
  } finally {
    await database.close();
  }
}

async function listLocal(root: string): Promise<{ key: string; bytes: number }[]> {
  const out: { key: string; bytes: number }[] = [];
  async function walk(dir: string, prefix: string) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (prefix === '' && e.name.startsWith('.')) continue; // .tmp: uploads being staged
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p, `${prefix}${e.name}/`);
      else if (e.isFile()) out.push({ key: `${prefix}${e.name}`, bytes: (await stat(p)).size });
    }
  }
  await walk(root, '');
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

async function listS3(s3: NonNullable<Config['s3']>): Promise<{ key: string; bytes: number }[]> {
  const client = createS3Client(s3);
  const out: { key: string; bytes: number }[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) {
      if (o.Key && !o.Key.endsWith('/')) out.push({ key: o.Key, bytes: o.Size ?? 0 });
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  client.destroy();
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

export type BackupResult = {
  file: string;
  bytes: number;
  manifest: Manifest;
  seconds: number;
  via: string;
};

/** What a backup and a restore both run with: the config and where progress lines go. */
export type OpsRun = { config: Config; onProgress?: (line: string) => void };

/** Writes the backup to `out` (via a temporary file, renamed at the end). */
export async function writeBackup(
  opts: OpsRun & { out: string; includeFiles?: boolean },
): Promise<BackupResult> {
  const { config } = opts;
  const progress = opts.onProgress ?? (() => {});
  const started = performance.now();
  const out = path.resolve(opts.out);
  await mkdir(path.dirname(out), { recursive: true });
  const partial = `${out}.part-${process.pid}`;

  const snapshot = await takeSnapshot(config, progress);
  const dump = Buffer.from(snapshot.sql, 'utf8');
  progress(`database: ${(dump.length / 1048576).toFixed(1)} MB of SQL`);

  const s3 = config.s3;
  const includeFiles = s3 ? Boolean(opts.includeFiles) : true;
  const driver = s3
    ? createS3Driver(s3, path.join(config.dataDir, 'tmp', 'uploads'))
    : createLocalDriver(path.join(config.dataDir, 'storage'));
  const listed = s3 ? await listS3(s3) : await listLocal(path.join(config.dataDir, 'storage'));

  const writer = new TarGzWriter(partial);
  try {
    await writer.addBuffer(DUMP_ENTRY, dump);
    const files: FileEntry[] = [];
    let bytes = 0;
    let lastReport = performance.now();
    for (const [i, f] of listed.entries()) {
      if (!includeFiles) {
        files.push({ key: f.key, bytes: f.bytes, sha256: '' });
        continue;
      }
      const opened = await driver.open(f.key);
      if (!opened) continue; // removed since it was listed: not part of the data any more
      const sha256 = await writer.addStream(
        `${FILES_PREFIX}${f.key}`,
        opened.size,
        Readable.from(opened.stream as AsyncIterable<Buffer>),
      );
      files.push({ key: f.key, bytes: opened.size, sha256 });
      bytes += opened.size;
      if (performance.now() - lastReport > 2000) {
        lastReport = performance.now();
        progress(`files: ${i + 1} of ${listed.length} (${(bytes / 1048576).toFixed(1)} MB)`);
      }
    }
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      formatVersion: 1,
      createdAt: new Date().toISOString(),
      portalVersion: portalVersion(),
      source: {
        database: config.databaseUrl ? 'postgres' : 'pglite',
        files: s3 ? 's3' : 'local',
        ...(s3 ? { bucket: s3.bucket } : {}),
      },
      migration: snapshot.migration,
      database: {
        entry: DUMP_ENTRY,
        bytes: dump.length,
        sha256: createHash('sha256').update(dump).digest('hex'),
        tables: snapshot.counts,
      },
      files: {
        included: includeFiles,
        count: files.length,
        bytes: includeFiles ? bytes : files.reduce((a, f) => a + f.bytes, 0),
        list: files,
      },
    };
    await writer.addBuffer(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2)));
    await writer.close();
    await rename(partial, out);
    return {
      file: out,
      bytes: (await stat(out)).size,
      manifest,
      seconds: (performance.now() - started) / 1000,
      via: snapshot.via,
    };
  } catch (err) {
    await writer.abort();
    await rm(partial, { force: true });
    throw err;
  }
}
