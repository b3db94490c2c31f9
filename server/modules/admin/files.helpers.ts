import type { FileLink } from '../../../contract/admin.ts';
import { displayName, type Storage } from '../../storage/storage.ts';

/** Turns a storage key into something the admin can open (a signed or public URL). */
export type FileLinker = (key: string) => Promise<FileLink>;

/** The lifetime of every signed URL the admin API hands out (spec §7: 3600 s). */
export const SIGNED_URL_SECONDS = 3600;

/** Links to private files: signed URLs valid 3600 s, issued only behind the admin guard. */
export function signedLinker(storage: Storage): FileLinker {
  return async (key) => ({
    name: displayName(key),
    url: storage.signedUrl(key, SIGNED_URL_SECONDS),
  });
}

/** A FileLink or null for an optional key. */
export async function linkOrNull(link: FileLinker, key: string | null): Promise<FileLink | null> {
  return key ? link(key) : null;
}

/**
 * Runs the database write that points at a freshly stored file. If the write fails the new
 * file is deleted; once it has committed, the file it replaced is deleted (a failure there
 * only leaves an orphan, so it is logged, not thrown).
 */
export async function commitUpload<T>(opts: {
  storage: Storage;
  key: string;
  write: () => Promise<{ result: T; replacedKey: string | null }>;
  log: { warn(obj: object, msg: string): void };
}): Promise<T> {
  let out: { result: T; replacedKey: string | null };
  try {
    out = await opts.write();
  } catch (err) {
    await opts.storage.delete(opts.key).catch((e: unknown) => {
      opts.log.warn({ err: e, key: opts.key }, 'could not delete an upload after a failed write');
    });
    throw err;
  }
  if (out.replacedKey) {
    const old = out.replacedKey;
    await opts.storage.delete(old).catch((e: unknown) => {
      opts.log.warn({ err: e, key: old }, 'could not delete a replaced file');
    });
  }
  return out.result;
}
