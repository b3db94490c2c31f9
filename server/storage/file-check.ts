import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { AppError } from '../errors.ts';
import {
  BUCKETS,
  type BucketName,
  extensionOf,
  type FileType,
  isFileType,
  sanitizeFilename,
  tooLarge,
  unsupportedType,
} from './storage.ts';
import { checkSvg } from './svg-check.ts';

/** What `file-type` may report for a file with each extension (svg is checked as text). */
const DETECTED_AS: Record<Exclude<FileType, 'svg'>, readonly string[]> = {
  mp3: ['mp3'],
  mp4: ['mp4', 'm4v', 'm4a'],
  pdf: ['pdf'],
  // Word 97-2003 files are OLE compound files; file-type reports the container.
  doc: ['cfb'],
  docx: ['docx'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  png: ['png', 'apng'],
};

export type StagedFile = {
  tempPath: string;
  size: number;
  type: FileType;
  /** The sanitized name, extension included. */
  name: string;
};

/** A pass-through that fails with 413 as soon as more than maxBytes have gone by. */
function sizeCap(maxBytes: number, counter: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      counter.bytes += chunk.length;
      if (counter.bytes > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
}

function discard(stream: NodeJS.ReadableStream): void {
  const s = stream as Readable;
  if (typeof s.destroy === 'function' && !s.destroyed) s.destroy();
}

/**
 * Streams an upload into a temporary file under tmpDir while counting bytes, then checks its
 * type by content and by extension. On any failure the temporary file is gone and an AppError
 * (415/413/400) says why; on success the caller moves the file into place.
 */
export async function stageUpload(input: {
  tmpDir: string;
  bucket: BucketName;
  filename: string;
  stream: NodeJS.ReadableStream;
  accept: readonly FileType[];
  maxBytes?: number;
}): Promise<StagedFile> {
  const name = sanitizeFilename(input.filename);
  const ext = extensionOf(name);
  const maxBytes = Math.min(
    input.maxBytes ?? BUCKETS[input.bucket].maxBytes,
    BUCKETS[input.bucket].maxBytes,
  );
  if (!isFileType(ext) || !input.accept.includes(ext)) {
    discard(input.stream);
    throw unsupportedType(input.accept);
  }
  await mkdir(input.tmpDir, { recursive: true });
  const tempPath = path.join(input.tmpDir, `${randomUUID()}.part`);
  try {
    const counter = { bytes: 0 };
    const source =
      input.stream instanceof Readable ? input.stream : Readable.from(input.stream as never);
    await pipeline(
      source,
      sizeCap(maxBytes, counter),
      createWriteStream(tempPath, { mode: 0o640 }),
    );
    if (counter.bytes === 0) {
      throw new AppError('validation_failed', `The file ${name} is empty.`);
    }
    await checkContent({ tempPath, ext, name, accept: input.accept });
    return { tempPath, size: counter.bytes, type: ext, name };
  } catch (err) {
    discard(input.stream);
    await rm(tempPath, { force: true });
    throw err;
  }
}

async function checkContent(opts: {
  tempPath: string;
  ext: FileType;
  name: string;
  accept: readonly FileType[];
}): Promise<void> {
  const { tempPath, ext, name, accept } = opts;
  if (ext === 'svg') {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(tempPath));
    } catch {
      throw unsupportedType(accept, `${name} is not a valid SVG image. `);
    }
    const problem = checkSvg(text);
    if (problem === 'not_svg') throw unsupportedType(accept, `${name} is not a valid SVG image. `);
    if (problem === 'active_content') {
      throw new AppError(
        'unsupported_media_type',
        'The SVG file contains scripts, event handlers or links to scripts, which are not allowed. Please upload a plain SVG, PNG or JPG image.',
      );
    }
    return;
  }
  const detected = await fileTypeFromFile(tempPath);
  if (!detected || !DETECTED_AS[ext].includes(detected.ext)) {
    throw unsupportedType(accept, `${name} is not a real ${ext.toUpperCase()} file. `);
  }
}
