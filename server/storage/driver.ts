import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { stageUpload } from './file-check.ts';
import { createUrlSigner, DEFAULT_URL_LIFETIME_SECONDS, encodeKeyPath } from './signed-url.ts';
import {
  assertOwner,
  BUCKETS,
  CONTENT_TYPES,
  contentTypeOfKey,
  parseKey,
  type Storage,
} from './storage.ts';

/** What a backend (local disk, S3) must do; checks, keys and URLs are shared above it. */
export type StorageDriver = {
  /** Where uploads are staged before they are checked (same file system for local). */
  tmpDir: string;
  /** Moves a checked temporary file to `key`; the temporary file is gone afterwards. */
  commit(tempPath: string, key: string, meta: { size: number; contentType: string }): Promise<void>;
  remove(key: string): Promise<void>;
  open(
    key: string,
    range?: { start: number; end?: number },
  ): Promise<{ stream: NodeJS.ReadableStream; size: number } | null>;
  stat(key: string): Promise<{ size: number } | null>;
};

/** Uploads staged longer ago than this were cut off by a crash or restart. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

/** Removes staged uploads a previous process left behind; never fails start-up. */
export async function sweepStaleUploads(tmpDir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  const names = await readdir(tmpDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith('.part')) continue;
    const p = path.join(tmpDir, name);
    const s = await stat(p).catch(() => null);
    if (s && now - s.mtimeMs > STALE_UPLOAD_MS) {
      await rm(p, { force: true });
      removed++;
    }
  }
  return removed;
}

/** Builds the Storage every module uses on top of one driver. */
export function composeStorage(driver: StorageDriver, opts: { secret: string }): Storage {
  const signer = createUrlSigner(opts.secret);
  void sweepStaleUploads(driver.tmpDir).catch(() => {});

  function mustParse(key: string) {
    const parsed = parseKey(key);
    if (!parsed) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return parsed;
  }

  return {
    async putFile(input) {
      assertOwner(input.owner);
      const staged = await stageUpload({ ...input, tmpDir: driver.tmpDir });
      const key = `${input.bucket}/${input.owner}/${randomUUID()}-${staged.name}`;
      const contentType = CONTENT_TYPES[staged.type];
      try {
        await driver.commit(staged.tempPath, key, { size: staged.size, contentType });
      } catch (err) {
        await rm(staged.tempPath, { force: true });
        await driver.remove(key).catch(() => {});
        throw err;
      }
      return { key, size: staged.size, contentType, filename: staged.name };
    },

    async delete(key) {
      if (!parseKey(key)) return;
      await driver.remove(key);
    },

    async read(key, range) {
      if (!parseKey(key)) return null;
      if (range && (!Number.isInteger(range.start) || range.start < 0)) {
        throw new Error('range.start must be a non-negative integer');
      }
      const opened = await driver.open(key, range);
      return opened && { ...opened, contentType: contentTypeOfKey(key) };
    },

    async stat(key) {
      if (!parseKey(key)) return null;
      const s = await driver.stat(key);
      return s && { size: s.size, contentType: contentTypeOfKey(key) };
    },

    signedUrl(key, expiresInSeconds = DEFAULT_URL_LIFETIME_SECONDS) {
      const { bucket, path } = mustParse(key);
      const expires = Math.floor(Date.now() / 1000) + Math.max(1, Math.floor(expiresInSeconds));
      const sig = signer.sign(bucket, path, expires);
      return `/files/${bucket}/${encodeKeyPath(path)}?expires=${expires}&sig=${sig}`;
    },

    publicUrl(key) {
      const { bucket, path } = mustParse(key);
      if (!BUCKETS[bucket].isPublic) throw new Error(`bucket ${bucket} is not public`);
      return `/files/public/${bucket}/${encodeKeyPath(path)}`;
    },
  };
}
