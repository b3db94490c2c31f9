import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { UploadRule } from '../../contract/uploads.ts';
import { AppError, badRequest } from '../errors.ts';
import {
  type BucketName,
  describeSize,
  type FileType,
  LARGEST_BUCKET_MAX_BYTES,
  type Storage,
  type StoredFile,
} from './storage.ts';

/** Limits for @fastify/multipart: the hard ceiling above the per-bucket caps. */
export const MULTIPART_LIMITS = {
  // One byte over the largest cap, so our own cap (with its clear message) always fires first.
  fileSize: LARGEST_BUCKET_MAX_BYTES + 1,
  files: 10,
  fields: 20,
  fieldSize: 64 * 1024,
  parts: 30,
} as const;

export type UploadFieldSpec = {
  bucket: BucketName;
  accept: readonly FileType[];
  min?: number;
  max: number;
  maxBytes?: number;
  /** Sentences for this field's count errors instead of the generic ones (e.g. the spec's). */
  messages?: { too_many_files?: string; missing_files?: string };
};

/**
 * The fields of an upload from its rule in contract/uploads.ts (count, types, size), stored in
 * `bucket`; `extra` adds per-field server details (a size cap, the spec's sentences).
 */
export function uploadFields(
  rule: UploadRule,
  bucket: BucketName,
  extra: Record<string, Partial<UploadFieldSpec>> = {},
): Record<string, UploadFieldSpec> {
  return Object.fromEntries(
    Object.entries(rule).map(([name, r]) => [
      name,
      {
        bucket,
        accept: r.types as readonly FileType[],
        min: r.min,
        max: r.max,
        ...(r.maxBytes === undefined ? {} : { maxBytes: r.maxBytes }),
        ...extra[name],
      },
    ]),
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Turns errors of the multipart parser (limits, broken or aborted bodies) into 4xx answers. */
function asUploadError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const e = err as { code?: string; message?: string; statusCode?: number };
  switch (e.code) {
    case 'FST_FILES_LIMIT':
      return badRequest(`Too many files in one upload (at most ${MULTIPART_LIMITS.files}).`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest('Too many form fields in one upload.');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(
        'payload_too_large',
        `The file is larger than ${describeSize(LARGEST_BUCKET_MAX_BYTES)}.`,
      );
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('unsupported_media_type', 'A multipart/form-data upload was expected.');
    case 'FST_PROTO_VIOLATION':
      return badRequest('The upload has a field name that is not allowed.');
    case 'ERR_STREAM_PREMATURE_CLOSE':
    case 'FST_REQ_PREMATURE_CLOSE':
      return badRequest('The upload was interrupted before it finished. Please try again.');
  }
  if (
    /terminated early|unexpected end|boundary|malformed|premature close|aborted/i.test(
      e.message ?? '',
    )
  ) {
    return badRequest('The upload was interrupted or malformed. Please try again.');
  }
  return err;
}

/**
 * Reads and drops the rest of a refused upload before answering: the client then gets the error
 * instead of a stalled upload, and the connection stays usable (bounded to 30 s).
 */
async function drainRequest(req: FastifyRequest): Promise<void> {
  const raw = req.raw;
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, 30_000);
    raw.once('end', done);
    raw.once('close', done);
    raw.once('error', done);
    raw.resume();
  });
}

/**
 * Streams every file part of the request into storage as it arrives (nothing buffered whole in
 * memory), enforcing per-field counts and types. Non-file fields are returned in `fields`. On
 * ANY error it deletes what it already stored and rethrows (AppError). Unknown file fields → 400.
 */
export async function receiveUploads(
  req: FastifyRequest,
  storage: Storage,
  opts: { owner: string; files: Record<string, UploadFieldSpec> },
): Promise<{ files: Record<string, StoredFile[]>; fields: Record<string, string> }> {
  if (!req.isMultipart()) {
    throw new AppError('unsupported_media_type', 'A multipart/form-data upload was expected.');
  }
  const files: Record<string, StoredFile[]> = {};
  for (const name of Object.keys(opts.files)) files[name] = [];
  const fields: Record<string, string> = {};
  const stored: StoredFile[] = [];

  try {
    for await (const part of req.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw badRequest(`The field ${part.fieldname} is too long.`);
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      const spec = Object.hasOwn(opts.files, part.fieldname)
        ? opts.files[part.fieldname]
        : undefined;
      if (!spec) {
        part.file.resume();
        throw badRequest(`Unexpected file field "${part.fieldname}".`, {
          [part.fieldname]: ['This field does not take files.'],
        });
      }
      // An empty <input type="file"> is sent as a part without a name: nothing was chosen.
      if (!part.filename) {
        part.file.resume();
        continue;
      }
      const list = files[part.fieldname]!;
      if (list.length >= spec.max) {
        part.file.resume();
        const message =
          spec.messages?.too_many_files ??
          `You can upload at most ${plural(spec.max, 'file')} for ${part.fieldname}.`;
        throw new AppError('too_many_files', message, {
          status: 400,
          details: { [part.fieldname]: [message] },
        });
      }
      const file = await storage.putFile({
        bucket: spec.bucket,
        owner: opts.owner,
        filename: part.filename,
        stream: part.file,
        accept: spec.accept,
        maxBytes: spec.maxBytes,
      });
      stored.push(file);
      if (part.file.truncated) {
        throw new AppError(
          'payload_too_large',
          `The file is larger than ${describeSize(LARGEST_BUCKET_MAX_BYTES)}.`,
        );
      }
      list.push(file);
    }

    for (const [name, spec] of Object.entries(opts.files)) {
      const min = spec.min ?? 0;
      if (files[name]!.length < min) {
        const message =
          spec.messages?.missing_files ??
          (min === 1
            ? `Please choose a file for ${name}.`
            : `Please choose at least ${plural(min, 'file')} for ${name}.`);
        throw new AppError('missing_files', message, {
          status: 400,
          details: { [name]: [message] },
        });
      }
    }
    return { files, fields };
  } catch (err) {
    await Promise.allSettled([drainRequest(req), ...stored.map((f) => storage.delete(f.key))]);
    throw asUploadError(err);
  }
}

/**
 * Runs the database write that points at freshly stored files (`keys`). When the write fails,
 * the files are deleted and the error rethrown; once it has committed, the files it says it
 * replaced are deleted (a failure there only leaves an orphan, so it is logged, not thrown).
 */
export async function writeOrRemove<T>(opts: {
  storage: Storage;
  keys: readonly string[];
  write: () => Promise<{ result: T; replacedKeys?: readonly (string | null)[] }>;
  log: { warn(obj: object, msg: string): void };
}): Promise<T> {
  const { storage, log } = opts;
  let out: { result: T; replacedKeys?: readonly (string | null)[] };
  try {
    out = await opts.write();
  } catch (err) {
    await Promise.all(
      opts.keys.map((key) =>
        storage.delete(key).catch((e: unknown) => {
          log.warn({ err: e, key }, 'could not delete an upload after a failed write');
        }),
      ),
    );
    throw err;
  }
  for (const old of out.replacedKeys ?? []) {
    if (!old) continue;
    await storage.delete(old).catch((e: unknown) => {
      log.warn({ err: e, key: old }, 'could not delete a replaced file');
    });
  }
  return out.result;
}

/**
 * Every upload route's one way: store the request's files (receiveUploads: per-field count,
 * type and size, coded errors), then run `write`, the database transaction that points at
 * them; the files are removed when it fails (writeOrRemove).
 */
export async function storeThenWrite<T>(
  req: FastifyRequest,
  storage: Storage,
  opts: {
    owner: string;
    fields: Record<string, UploadFieldSpec>;
    write: (
      files: Record<string, StoredFile[]>,
    ) => Promise<{ result: T; replacedKeys?: readonly (string | null)[] }>;
  },
): Promise<T> {
  const { files } = await receiveUploads(req, storage, { owner: opts.owner, files: opts.fields });
  return writeOrRemove({
    storage,
    keys: Object.values(files).flatMap((list) => list.map((f) => f.key)),
    write: () => opts.write(files),
    log: req.log,
  });
}

/**
 * `storeThenWrite` for an upload of one file (the `file` field of `uploadFields`): `write` gets
 * its key and answers the result and the key of the file it replaced, deleted after the commit.
 */
export function storeFileThenWrite<T>(
  req: FastifyRequest,
  storage: Storage,
  opts: {
    owner: string;
    fields: Record<string, UploadFieldSpec>;
    write: (key: string) => Promise<{ result: T; replacedKey: string | null }>;
  },
): Promise<T> {
  return storeThenWrite(req, storage, {
    owner: opts.owner,
    fields: opts.fields,
    write: async (files) => {
      const { result, replacedKey } = await opts.write(files.file![0]!.key);
      return { result, replacedKeys: [replacedKey] };
    },
  });
}

/**
 * Reads the one file part `field` of a multipart request into memory, for uploads that are
 * parsed rather than stored (a CSV import): at most `maxBytes` (then 413 with `tooLarge`); the
 * rest of a refused body is drained so the client gets the answer.
 */
export async function receiveFileBuffer(
  req: FastifyRequest,
  opts: { field: string; maxBytes: number; tooLarge: string; missing: string },
): Promise<{ filename: string; data: Buffer }> {
  if (!req.isMultipart()) {
    throw new AppError('unsupported_media_type', 'A multipart/form-data upload was expected.');
  }
  let found: { filename: string; data: Buffer } | undefined;
  try {
    for await (const part of req.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'field') continue;
      if (part.fieldname !== opts.field || found || !part.filename) {
        part.file.resume();
        if (part.fieldname !== opts.field) {
          throw badRequest(`Unexpected file field "${part.fieldname}".`, {
            [part.fieldname]: ['This field does not take files.'],
          });
        }
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        size += (chunk as Buffer).length;
        if (size > opts.maxBytes) throw new AppError('payload_too_large', opts.tooLarge);
        chunks.push(chunk as Buffer);
      }
      if (part.file.truncated) throw new AppError('payload_too_large', opts.tooLarge);
      found = { filename: part.filename, data: Buffer.concat(chunks) };
    }
  } catch (err) {
    await drainRequest(req);
    throw asUploadError(err);
  }
  if (!found) {
    throw new AppError('missing_files', opts.missing, {
      status: 400,
      details: { [opts.field]: [opts.missing] },
    });
  }
  return found;
}
