import type { FileLink } from '../../contract/admin.ts';
import { SIGNED_URL_SECONDS } from '../../contract/publisher.ts';
import { displayName, type Storage } from './storage.ts';

/** Turns a storage key into something the admin can open (a signed or public URL). */
export type FileLinker = (key: string) => Promise<FileLink>;

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
