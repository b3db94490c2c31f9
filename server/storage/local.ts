import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { composeStorage, type StorageDriver } from './driver.ts';
import type { Storage } from './storage.ts';

/**
 * Resolves a key to a path strictly inside root, or null. Checked here again (not only by
 * parseKey) so that no caller can ever make this driver touch a file outside its root.
 */
export function resolveInside(root: string, key: string): string | null {
  if (
    !key ||
    key.includes('\0') ||
    key.includes('\\') ||
    key.startsWith('/') ||
    path.isAbsolute(key) ||
    key.split('/').some((s) => s === '' || s === '.' || s === '..')
  ) {
    return null;
  }
  const full = path.resolve(root, ...key.split('/'));
  return full.startsWith(root + path.sep) ? full : null;
}

/** The local-disk driver: files under root (DATA_DIR/storage), written via temp file + rename. */
export function createLocalDriver(rootDir: string): StorageDriver {
  const root = path.resolve(rootDir);
  // Bucket names never start with a dot, so staged uploads can never be read as files.
  const tmpDir = path.join(root, '.tmp');

  const fileOf = (key: string) => {
    const p = resolveInside(root, key);
    if (!p) throw new Error(`refusing a storage key outside the root: ${JSON.stringify(key)}`);
    return p;
  };

  async function sizeOf(p: string): Promise<number | null> {
    try {
      const s = await stat(p);
      return s.isFile() ? s.size : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  return {
    tmpDir,
    async commit(tempPath, key) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tempPath, target);
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
    async open(key, range) {
      const p = fileOf(key);
      const size = await sizeOf(p);
      if (size === null) return null;
      if (!range) return { stream: createReadStream(p), size };
      if (range.start >= size) return { stream: Readable.from([]), size };
      const end = Math.min(range.end ?? size - 1, size - 1);
      return { stream: createReadStream(p, { start: range.start, end }), size };
    },
    async stat(key) {
      const size = await sizeOf(fileOf(key));
      return size === null ? null : { size };
    },
  };
}

/** Storage on local disk. */
export function createLocalStorage(opts: { root: string; secret: string }): Storage {
  return composeStorage(createLocalDriver(opts.root), { secret: opts.secret });
}
