// Backups with S3 storage: by default the objects stay in the bucket (the manifest lists them);
// --include-files copies them into the archive, and a restore puts them into the configured
// bucket, each read back against its checksum. Real S3 protocol (s3rver), real PGlite on disk.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { ensureFirstAdmin } from '../modules/accounts/admin-account.service.ts';
import { createStorage } from '../storage/index.ts';
import { pdfFile } from '../test/fixtures.ts';
import { writeBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';

const temps: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'pdd-s3-'));
  temps.push(d);
  return d;
};
let server: S3rver | undefined;

afterAll(async () => {
  await server?.close();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe.runIf(!process.env.TEST_DATABASE_URL)('backups with S3 storage', () => {
  it('lists the objects, or copies them with includeFiles, and restores them into a bucket', async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: tempDir(),
      configureBuckets: [{ name: 'source-files' }, { name: 'restored-files' }],
    });
    const { port } = await server.run();
    const s3Env = (bucket: string) => ({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      JWT_SECRET: randomBytes(32).toString('hex'),
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    });
    const config = loadConfig({ ...s3Env('source-files'), DATA_DIR: tempDir() });
    const database = await openDatabase(config);
    try {
      await database.migrate();
      await ensureFirstAdmin(database.db, { email: 'a@s3.test', password: 'a-password-1' });
      const storage = createStorage(config);
      for (let i = 0; i < 3; i++) {
        await storage.putFile({
          bucket: 'io_documents',
          owner: '00000000-0000-4000-8000-000000000001',
          filename: `io-${i}.pdf`,
          stream: Readable.from([pdfFile, Buffer.from(`\n% copy ${i}\n`)]),
          accept: ['pdf'],
        });
      }
    } finally {
      await database.close();
    }

    const listed = await writeBackup({ config, out: path.join(tempDir(), 'listed.tar.gz') });
    expect(listed.manifest.source).toEqual({
      database: 'pglite',
      files: 's3',
      bucket: 'source-files',
    });
    expect(listed.manifest.files.included).toBe(false);
    expect(listed.manifest.files.count).toBeGreaterThan(0);

    const copied = await writeBackup({
      config,
      out: path.join(tempDir(), 'copied.tar.gz'),
      includeFiles: true,
    });
    expect(copied.manifest.files.included).toBe(true);
    expect(copied.manifest.files.count).toBe(listed.manifest.files.count);
    expect(copied.bytes).toBeGreaterThan(listed.bytes);

    // Into another bucket: every object there, byte for byte.
    const target = loadConfig({ ...s3Env('restored-files'), DATA_DIR: tempDir() });
    const restored = await restoreBackup({ config: target, file: copied.file });
    expect(restored.files.restored).toBe(copied.manifest.files.count);
    const storage = createStorage(target);
    for (const f of copied.manifest.files.list) {
      const file = await storage.read(f.key);
      expect(file, f.key).not.toBeNull();
      const hash = createHash('sha256');
      for await (const chunk of file!.stream as AsyncIterable<Buffer>) hash.update(chunk);
      expect(hash.digest('hex')).toBe(f.sha256);
    }

    // A backup without the objects restores the database; the files stay where they are.
    const inPlace = loadConfig({ ...s3Env('source-files'), DATA_DIR: tempDir() });
    const second = await restoreBackup({ config: inPlace, file: listed.file });
    expect(second.files.leftInBucket).toBe(listed.manifest.files.count);
    expect(second.rows).toBe(restored.rows);
  }, 240_000);
});
