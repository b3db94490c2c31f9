/** Why a file cannot be shown, in the spec's words (§8). */
export const FILE_MESSAGES = {
  missing: 'File not available',
  invalid: 'Invalid file URL',
  loadFailed: 'Could not load file',
  urlFailed: 'Could not get file URL',
} as const;

export type CheckedUrl = { ok: true; href: string } | { ok: false; message: string };

/**
 * Accepts only http(s) URLs (relative ones resolve against this origin), so a stored value can
 * never become a javascript: or data: link.
 */
export function checkFileUrl(url: string | null | undefined): CheckedUrl {
  if (!url?.trim()) return { ok: false, message: FILE_MESSAGES.missing };
  let parsed: URL;
  try {
    parsed = new URL(url, window.location.origin);
  } catch {
    return { ok: false, message: FILE_MESSAGES.invalid };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, message: FILE_MESSAGES.invalid };
  }
  return { ok: true, href: parsed.href };
}

/** mp3 plays in <audio>, mp4 in <video>; anything else is opened as a file. */
export function mediaKindOf(name: string, url: string): 'audio' | 'video' | 'other' {
  const fromName = name.split('.').pop()?.toLowerCase();
  let fromUrl: string | undefined;
  try {
    fromUrl = new URL(url, window.location.origin).pathname.split('.').pop()?.toLowerCase();
  } catch {
    fromUrl = undefined;
  }
  const ext = fromName && fromName !== name.toLowerCase() ? fromName : fromUrl;
  if (ext === 'mp3') return 'audio';
  if (ext === 'mp4') return 'video';
  return 'other';
}
