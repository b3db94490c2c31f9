import { displayName } from '../../contract/uploads.ts';
import { AppError } from '../errors.ts';

export type BucketName =
  | 'logos'
  | 'compliance-questionnaires'
  | 'io_documents'
  | 'marketing_agreements'
  | 'lead_disputes'
  | 'recordings'
  | 'tax_forms';
export type FileType = 'mp3' | 'mp4' | 'pdf' | 'doc' | 'docx' | 'jpg' | 'jpeg' | 'png' | 'svg';
/** `key` is `bucket/owner/uuid-name`, what the database stores; `size` in bytes. */
export type StoredFile = { key: string; size: number; contentType: string; filename: string };

/** The one way the server stores and serves files; local disk or S3 behind it. */
export interface Storage {
  /**
   * Streams into the bucket under a server-made key `${bucket}/${owner}/${uuid}-${sanitizedName}`;
   * checks the type by content and by extension against `accept`; caps the size (maxBytes,
   * default from the bucket). Throws AppError 415 'unsupported_media_type' or 413
   * 'payload_too_large'. On any failure nothing is left stored.
   */
  putFile(input: {
    bucket: BucketName;
    owner: string;
    filename: string;
    stream: NodeJS.ReadableStream;
    accept: readonly FileType[];
    maxBytes?: number;
  }): Promise<StoredFile>;
  /** Removes the file; a missing file is fine. */
  delete(key: string): Promise<void>;
  /**
   * Opens the file, or the byte range [start, end] (end inclusive) of it; null when missing.
   * `size` is always the size of the whole file.
   */
  read(
    key: string,
    range?: { start: number; end?: number },
  ): Promise<{ stream: NodeJS.ReadableStream; size: number; contentType: string } | null>;
  /** Size and type without opening the file (used to answer Range requests); null when missing. */
  stat(key: string): Promise<{ size: number; contentType: string } | null>;
  /** '/files/{bucket}/{path}?expires=…&sig=…', valid for expiresInSeconds (default 3600). */
  signedUrl(key: string, expiresInSeconds?: number): string;
  /** '/files/public/{bucket}/{path}'; only for public buckets. */
  publicUrl(key: string): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Decorated in app.ts: local disk or S3, chosen by config. */
    storage: Storage;
  }
}

const MB = 1024 * 1024;

/**
 * Bucket rules. Size caps are enforced on the server while the upload streams:
 * - logos: 5 MB, the limit the settings page hints at ('Max 5MB. PNG, JPG, SVG.').
 * - compliance-questionnaires: 100 MB, because call recordings (mp3/mp4) are large; callers
 *   pass a smaller maxBytes (DOCUMENT_MAX_BYTES) for the document fields.
 * - io_documents, marketing_agreements: 25 MB, plenty for a signed PDF, Word file or a scan.
 */
export const BUCKETS: Record<BucketName, { isPublic: boolean; maxBytes: number }> = {
  logos: { isPublic: true, maxBytes: 5 * MB },
  'compliance-questionnaires': { isPublic: false, maxBytes: 100 * MB },
  io_documents: { isPublic: false, maxBytes: 25 * MB },
  marketing_agreements: { isPublic: false, maxBytes: 25 * MB },
  // A dispute's proof: a document, a screenshot or a short recording.
  lead_disputes: { isPublic: false, maxBytes: 25 * MB },
  // Call recordings kept by the portal (played on the lead detail through signed URLs).
  recordings: { isPublic: false, maxBytes: 100 * MB },
  // Publishers' W-9/W-8 forms (issue 27): PDFs with tax ids, never public.
  tax_forms: { isPublic: false, maxBytes: 25 * MB },
};

/** Per-file cap for documents (pdf, doc, docx, scans) wherever they are stored. */
export const DOCUMENT_MAX_BYTES = 25 * MB;
/** Per-file cap for media files (call recordings). */
export const MEDIA_MAX_BYTES = 100 * MB;
/** The largest cap of any bucket: the multipart parser's hard per-file limit. */
export const LARGEST_BUCKET_MAX_BYTES = Math.max(...Object.values(BUCKETS).map((b) => b.maxBytes));

/** Content-Type served for each accepted type. */
export const CONTENT_TYPES: Record<FileType, string> = {
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
};

/** Types a browser may show in place; everything else downloads as an attachment. */
const INLINE_TYPES: ReadonlySet<FileType> = new Set([
  'mp3',
  'mp4',
  'pdf',
  'jpg',
  'jpeg',
  'png',
  'svg',
]);

export function isBucketName(value: string): value is BucketName {
  return Object.hasOwn(BUCKETS, value);
}

export function isFileType(value: string): value is FileType {
  return Object.hasOwn(CONTENT_TYPES, value);
}

/** The lower-case extension of a file name, or '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

const OWNER_RE = /^[A-Za-z0-9_-]{1,64}$/;
// One key segment: letters, digits (any script), dot, dash, underscore; never '.' or '..'.
const SEGMENT_RE = /^[\p{L}\p{N}._-]{1,200}$/u;
const MAX_NAME_LENGTH = 100;

/** Checks the owner part of a key (a user id or a word like 'settings'). */
export function assertOwner(owner: string): void {
  if (!OWNER_RE.test(owner)) {
    throw new Error(`storage owner must match ${OWNER_RE}: ${JSON.stringify(owner)}`);
  }
}

/**
 * Makes a safe file name from what the browser sent: no directories, no control or special
 * characters, letters of any script kept, at most 100 characters, the extension kept.
 */
export function sanitizeFilename(name: string): string {
  const base = name.normalize('NFC').split(/[\\/]/).pop() ?? '';
  const ext = extensionOf(base);
  const stem = ext ? base.slice(0, base.length - ext.length - 1) : base;
  const clean = (s: string) =>
    s
      .replace(/[^\p{L}\p{N}._-]+/gu, '_')
      .replace(/_+/g, '_')
      .replace(/\.{2,}/g, '.')
      .replace(/^[._-]+|[._-]+$/g, '');
  const cleanExt = clean(ext).replace(/\./g, '').toLowerCase().slice(0, 10);
  let cleanStem = clean(stem) || 'file';
  const room = MAX_NAME_LENGTH - (cleanExt ? cleanExt.length + 1 : 0);
  cleanStem = cleanStem.slice(0, room).replace(/[._-]+$/, '') || 'file';
  return cleanExt ? `${cleanStem}.${cleanExt}` : cleanStem;
}

/**
 * Splits a storage key into its bucket and path, or null when it is not a key this module
 * could have made (unknown bucket, '..', '.', empty segments, backslashes, NUL, absolute...).
 */
export function parseKey(key: string): { bucket: BucketName; path: string; name: string } | null {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1000) return null;
  const segments = key.split('/');
  const [bucket, ...rest] = segments;
  if (!bucket || !isBucketName(bucket) || rest.length === 0) return null;
  for (const s of rest) {
    if (!SEGMENT_RE.test(s) || s === '.' || s === '..') return null;
  }
  return { bucket, path: rest.join('/'), name: rest[rest.length - 1]! };
}

/** The name shown to people (contract/uploads.ts, shared with the web). */
export { displayName };

/** The type of a stored file from its (validated) extension. */
export function fileTypeOfKey(key: string): FileType | null {
  const ext = extensionOf(key.split('/').pop() ?? '');
  return isFileType(ext) ? ext : null;
}

/** Content-Type for a stored key; unknown extensions are served as opaque bytes. */
export function contentTypeOfKey(key: string): string {
  const t = fileTypeOfKey(key);
  return t ? CONTENT_TYPES[t] : 'application/octet-stream';
}

/** Whether a browser may display the file in place (pdf, images, audio, video). */
export function isInlineKey(key: string): boolean {
  const t = fileTypeOfKey(key);
  return t !== null && INLINE_TYPES.has(t);
}

/** 'MP3 or MP4', 'PDF, DOC or DOCX'. */
export function describeTypes(accept: readonly FileType[]): string {
  const names = [...new Set(accept.map((t) => t.toUpperCase()))];
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** '5 MB', '100 MB', '1.5 MB', '900 KB'. */
export function describeSize(bytes: number): string {
  if (bytes >= MB) {
    const mb = bytes / MB;
    return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  }
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function unsupportedType(accept: readonly FileType[], prefix = ''): AppError {
  return new AppError(
    'unsupported_media_type',
    `${prefix}Only ${describeTypes(accept)} files are accepted.`,
  );
}

export function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `The file is larger than ${describeSize(maxBytes)}.`);
}

/** A stored file's whole content, or null when it is missing. */
export async function readStored(storage: Storage, key: string): Promise<Buffer | null> {
  const file = await storage.read(key).catch(() => null);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}
