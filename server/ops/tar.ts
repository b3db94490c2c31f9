// A small streaming tar (ustar + pax for long names) for backups: enough to write regular
// files and read them back, checking every header so a damaged archive is refused.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, type Readable, type Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, type: '0' | 'x', mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name.slice(0, 100), 0, 'utf8');
  h.write(octal(0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(Math.floor(mtime / 1000), 12), 136);
  h.write('        ', 148); // checksum placeholder
  h.write(type, 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

function paxRecord(key: string, value: string): Buffer {
  const body = Buffer.byteLength(` ${key}=${value}\n`);
  let len = body + 1;
  while (String(len).length + body !== len) len++;
  return Buffer.from(`${len} ${key}=${value}\n`, 'utf8');
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK, 0);

/** Writes a .tar.gz; entries are added one after another. */
export class TarGzWriter {
  private gzip = createGzip({ level: 6 });
  private out: WriteStream;
  private done: Promise<void>;

  constructor(file: string) {
    this.out = createWriteStream(file, { mode: 0o600 });
    this.gzip.pipe(this.out);
    this.done = new Promise((resolve, reject) => {
      this.out.on('finish', () => resolve());
      this.out.on('error', reject);
      this.gzip.on('error', reject);
    });
  }

  private async write(buf: Buffer) {
    if (!this.gzip.write(buf)) await new Promise((r) => this.gzip.once('drain', r));
  }

  private async head(name: string, size: number) {
    const mtime = Date.now();
    if (Buffer.byteLength(name) > 100) {
      const pax = paxRecord('path', name);
      await this.write(header('pax-header', pax.length, 'x', mtime));
      await this.write(Buffer.concat([pax, padding(pax.length)]));
    }
    await this.write(header(name, size, '0', mtime));
  }

  /** Adds an entry from memory. */
  async addBuffer(name: string, data: Buffer) {
    await this.head(name, data.length);
    await this.write(data);
    await this.write(padding(data.length));
  }

  /** Adds an entry from a stream of exactly `size` bytes; returns its sha256. */
  async addStream(name: string, size: number, stream: Readable): Promise<string> {
    await this.head(name, size);
    const hash = createHash('sha256');
    let seen = 0;
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      seen += buf.length;
      if (seen > size) throw new Error(`${name} grew while it was being backed up`);
      hash.update(buf);
      await this.write(buf);
    }
    if (seen !== size) throw new Error(`${name} changed size while it was being backed up`);
    await this.write(padding(size));
    return hash.digest('hex');
  }

  async close() {
    await this.write(Buffer.alloc(BLOCK * 2, 0));
    this.gzip.end();
    await this.done;
  }

  /** Stops writing after a failure (the caller removes the file). */
  async abort() {
    this.gzip.destroy();
    this.out.destroy();
  }
}

/** A problem with the archive itself: damaged, truncated, or not a backup. */
export class ArchiveError extends Error {}

function readOctal(buf: Buffer, start: number, len: number): number {
  const text = buf
    .subarray(start, start + len)
    .toString('ascii')
    .replace(/[\0 ]+$/g, '')
    .trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError('a tar header has a bad number');
  return Number.parseInt(text, 8);
}

function checkHeader(h: Buffer) {
  const stored = readOctal(h, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  if (sum !== stored) throw new ArchiveError('a tar header checksum does not match');
}

export type ExtractedEntry = { name: string; size: number; sha256: string; file: string };

/** A name that stays inside the extraction folder. */
function safeName(name: string): string {
  const parts = name.split('/');
  if (
    !name ||
    name.startsWith('/') ||
    name.includes('\\') ||
    name.includes('\0') ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  ) {
    throw new ArchiveError(`the archive holds an unsafe path: ${JSON.stringify(name)}`);
  }
  return name;
}

/** Drops a half-written file stream: a write still in flight may fail, which is expected now. */
function discard(out: Writable) {
  out.on('error', () => {});
  out.destroy();
}

/**
 * Extracts a .tar.gz into dir, checking headers and hashing every file. Throws ArchiveError
 * when the archive is damaged or truncated (gzip CRC, length, missing end).
 */
export async function extractTarGz(file: string, dir: string): Promise<ExtractedEntry[]> {
  const entries: ExtractedEntry[] = [];
  // pipeline, not pipe: when the loop below stops early (a damaged archive), the file stream is
  // closed too and no late write into the destroyed gunzip surfaces as an unhandled
  // ERR_STREAM_DESTROYED; the loop sees every error itself.
  const source = pipeline(createReadStream(file), createGunzip(), () => {});
  let pending: Buffer = Buffer.alloc(0);
  let state: 'header' | 'body' | 'pad' | 'end' = 'header';
  let remaining = 0;
  let padLeft = 0;
  let paxPath: string | null = null;
  let current: {
    name: string;
    size: number;
    hash: ReturnType<typeof createHash>;
    out: Writable | null;
    pax: Buffer[] | null;
    file: string;
  } | null = null;
  let zeroBlocks = 0;

  const finishEntry = async () => {
    if (!current) return;
    if (current.pax) {
      const text = Buffer.concat(current.pax).toString('utf8');
      const m = /\d+ path=([^\n]*)\n/.exec(text);
      paxPath = m ? m[1]! : null;
    } else if (current.out) {
      const out = current.out;
      await new Promise<void>((resolve, reject) => {
        out.on('error', reject);
        out.end(() => resolve());
      });
      entries.push({
        name: current.name,
        size: current.size,
        sha256: current.hash.digest('hex'),
        file: current.file,
      });
    }
    current = null;
  };

  try {
    for await (const chunk of source) {
      pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
      for (;;) {
        if (state === 'end') {
          pending = Buffer.alloc(0);
          break;
        }
        if (state === 'header') {
          if (pending.length < BLOCK) break;
          const h = pending.subarray(0, BLOCK);
          pending = pending.subarray(BLOCK);
          if (h.every((b) => b === 0)) {
            zeroBlocks++;
            if (zeroBlocks === 2) state = 'end';
            continue;
          }
          zeroBlocks = 0;
          checkHeader(h);
          const type = String.fromCharCode(h[156]!);
          const size = readOctal(h, 124, 12);
          let name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
          const prefix = h.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
          if (prefix) name = `${prefix}/${name}`;
          if (paxPath && type !== 'x') {
            name = paxPath;
            paxPath = null;
          }
          if (type === 'x') {
            current = { name, size, hash: createHash('sha256'), out: null, pax: [], file: '' };
          } else if (type === '0' || type === '\0') {
            const rel = safeName(name);
            const target = path.join(dir, ...rel.split('/'));
            await mkdir(path.dirname(target), { recursive: true });
            current = {
              name: rel,
              size,
              hash: createHash('sha256'),
              out: createWriteStream(target, { mode: 0o600 }),
              pax: null,
              file: target,
            };
          } else if (type === '5') {
            current = null;
          } else {
            throw new ArchiveError(`the archive holds an entry of unexpected type "${type}"`);
          }
          remaining = size;
          padLeft = (BLOCK - (size % BLOCK)) % BLOCK;
          state = 'body';
          continue;
        }
        if (state === 'body') {
          // The entry's last byte is in (an empty one has none): close it, then skip the padding.
          if (remaining === 0) {
            await finishEntry();
            state = padLeft ? 'pad' : 'header';
            continue;
          }
          if (pending.length === 0) break;
          const take = Math.min(remaining, pending.length);
          const part = pending.subarray(0, take);
          pending = pending.subarray(take);
          remaining -= take;
          if (current) {
            current.hash.update(part);
            if (current.pax) current.pax.push(Buffer.from(part));
            else if (current.out && !current.out.write(part)) {
              const out = current.out;
              await new Promise((r) => out.once('drain', r));
            }
          }
          continue;
        }
        if (state === 'pad') {
          if (pending.length === 0) break;
          const take = Math.min(padLeft, pending.length);
          pending = pending.subarray(take);
          padLeft -= take;
          if (padLeft === 0) state = 'header';
        }
      }
    }
  } catch (err) {
    if (current?.out) discard(current.out);
    if (err instanceof ArchiveError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'Z_STREAM_ERROR') {
      throw new ArchiveError(`it is not a valid gzip stream (${(err as Error).message})`);
    }
    throw err;
  }
  if (state !== 'end') {
    if (current?.out) discard(current.out);
    throw new ArchiveError('it ends before the end of the archive (truncated)');
  }
  return entries;
}
