import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import CFB from 'cfb';
import { fileTypeFromFile } from 'file-type';
import { parseFile } from 'music-metadata';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
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
import { sanitizeSvg } from './svg-check.ts';

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
    const size = await checkContent({ tempPath, ext, name, accept: input.accept });
    return { tempPath, size: size ?? counter.bytes, type: ext, name };
  } catch (err) {
    discard(input.stream);
    await rm(tempPath, { force: true });
    throw err;
  }
}

/** 415 with the reason, in a sentence a person understands. */
const refused = (name: string, reason: string, accept: readonly FileType[]) =>
  unsupportedType(accept, `${name} ${reason}. `);

/**
 * Checks the staged file by parsing it as what its extension says (issue 11: a header alone
 * proves nothing). Images and SVGs are rewritten in place (re-encoded or sanitized); the
 * answer is then their new size, else undefined.
 */
async function checkContent(opts: {
  tempPath: string;
  ext: FileType;
  name: string;
  accept: readonly FileType[];
}): Promise<number | undefined> {
  const { tempPath, ext, name, accept } = opts;
  if (ext === 'svg') {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(tempPath));
    } catch {
      throw refused(name, 'is not a valid SVG image', accept);
    }
    const clean = sanitizeSvg(text);
    if (!clean.ok) {
      if (clean.reason.startsWith('contains scripts')) {
        throw new AppError(
          'unsupported_media_type',
          'The SVG file contains scripts, event handlers or links to scripts, which are not allowed. Please upload a plain SVG, PNG or JPG image.',
        );
      }
      throw refused(name, clean.reason, accept);
    }
    return replaceWith(tempPath, Buffer.from(clean.svg, 'utf8'));
  }
  const detected = await fileTypeFromFile(tempPath);
  if (!detected || !DETECTED_AS[ext].includes(detected.ext)) {
    throw unsupportedType(accept, `${name} is not a real ${ext.toUpperCase()} file. `);
  }
  switch (ext) {
    case 'mp3':
    case 'mp4':
      await checkMedia(tempPath, ext, name, accept);
      return undefined;
    case 'pdf':
      await checkPdf(tempPath, name, accept);
      return undefined;
    case 'doc':
      await checkWordDocument(tempPath, name, accept);
      return undefined;
    case 'png':
    case 'jpg':
    case 'jpeg':
      return reencodeImage(tempPath, ext, name, accept);
    case 'docx':
      return undefined;
  }
}

async function replaceWith(tempPath: string, bytes: Buffer): Promise<number> {
  const next = `${tempPath}.clean`;
  await writeFile(next, bytes, { mode: 0o640 });
  await rename(next, tempPath);
  return bytes.length;
}

/** Audio and video must parse as such, with a real (positive, finite) duration. */
async function checkMedia(
  tempPath: string,
  ext: 'mp3' | 'mp4',
  name: string,
  accept: readonly FileType[],
): Promise<void> {
  const what = ext === 'mp3' ? 'an MP3 recording' : 'an MP4 recording';
  let meta: Awaited<ReturnType<typeof parseFile>>;
  try {
    meta = await parseFile(tempPath, { duration: true, skipCovers: true });
  } catch {
    throw refused(name, `could not be read as ${what}`, accept);
  }
  const { codec, container, duration } = meta.format;
  if (ext === 'mp3' && !/^MPEG [12](\.5)? Layer 3$/.test(codec ?? '')) {
    throw refused(name, `holds no MP3 audio`, accept);
  }
  if (ext === 'mp4' && !container) throw refused(name, `is not ${what}`, accept);
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) {
    throw refused(name, `has no playable audio or video (no duration)`, accept);
  }
}

/** A PDF must parse (pdf-lib) and have at least one page; encrypted PDFs are fine. */
async function checkPdf(tempPath: string, name: string, accept: readonly FileType[]) {
  let pages = 0;
  try {
    const doc = await PDFDocument.load(await readFile(tempPath), {
      ignoreEncryption: true,
      updateMetadata: false,
    });
    pages = doc.getPageCount();
  } catch {
    throw refused(name, 'could not be read as a PDF document', accept);
  }
  if (pages < 1) throw refused(name, 'is a PDF document without pages', accept);
}

/** A .doc must be a Word 97-2003 document: an OLE file with a WordDocument stream and its FIB. */
async function checkWordDocument(tempPath: string, name: string, accept: readonly FileType[]) {
  let word: Buffer | undefined;
  try {
    const container = CFB.read(await readFile(tempPath), { type: 'buffer' });
    const entry = CFB.find(container, 'WordDocument');
    if (entry?.content) word = Buffer.from(entry.content as Uint8Array);
  } catch {
    throw refused(name, 'could not be read as a Word document', accept);
  }
  // The File Information Block starts with wIdent 0xA5EC.
  if (!word || word.length < 32 || word.readUInt16LE(0) !== 0xa5ec) {
    throw refused(name, 'is not a Word document (no WordDocument stream)', accept);
  }
}

/** Images up to 40 megapixels; larger ones are refused before they are decoded. */
const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * PNG and JPG images are decoded and encoded again: what is not image data (trailing bytes,
 * metadata, anything hidden after the end marker) does not survive. EXIF rotation is applied
 * first so the picture keeps its orientation.
 */
async function reencodeImage(
  tempPath: string,
  ext: 'png' | 'jpg' | 'jpeg',
  name: string,
  accept: readonly FileType[],
): Promise<number> {
  const wanted = ext === 'png' ? 'png' : 'jpeg';
  let out: Buffer;
  try {
    const image = sharp(tempPath, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
    const meta = await image.metadata();
    if (meta.format !== wanted) throw new Error(`format ${meta.format}`);
    const oriented = image.rotate();
    out =
      wanted === 'png'
        ? await oriented.png({ compressionLevel: 9 }).toBuffer()
        : await oriented.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
  } catch (err) {
    const huge = /pixel limit/i.test((err as Error).message);
    throw refused(
      name,
      huge
        ? `is too large an image (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels)`
        : `could not be read as a ${ext.toUpperCase()} image`,
      accept,
    );
  }
  return replaceWith(tempPath, out);
}
