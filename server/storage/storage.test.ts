import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import Fastify from 'fastify';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import {
  docFile,
  docxFile,
  exeFile,
  jpgFile,
  mp3File,
  mp4File,
  pdfFile,
  pngFile,
  svgFile,
  textFile,
  unsafeSvgFiles,
} from '../test/fixtures.ts';
import { sweepStaleUploads } from './driver.ts';
import { filesRoutes } from './files.routes.ts';
import { createStorage } from './index.ts';
import { createLocalStorage } from './local.ts';
import { createS3Storage } from './s3.ts';
import type { BucketName, FileType, Storage } from './storage.ts';

type Harness = {
  storage: Storage;
  /** Every stored object key (staged temp files excluded). */
  listKeys(): Promise<string[]>;
  /** Temp files left behind by uploads. */
  listTemp(): string[];
};

const tmpRoots: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'portal-storage-'));
  tmpRoots.push(d);
  return d;
};
const secret = randomBytes(32).toString('hex');

function walk(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p, base) : [path.relative(base, p)];
  });
}

async function localHarness(): Promise<Harness & { root: string }> {
  const root = path.join(tempDir(), 'storage');
  return {
    root,
    storage: createLocalStorage({ root, secret }),
    listKeys: async () =>
      walk(root)
        .filter((p) => !p.startsWith('.tmp'))
        .map((p) => p.split(path.sep).join('/')),
    listTemp: () => walk(path.join(root, '.tmp')),
  };
}

let s3server: S3rver | undefined;

/** An S3 server on a free local port, files in a temporary folder, with one bucket. */
async function startS3rver(bucket: string): Promise<{ server: S3rver; port: number }> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: tempDir(),
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return { server, port };
}

async function s3Harness(): Promise<Harness> {
  const { server, port } = await startS3rver('portal-test');
  s3server = server;
  const s3 = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket: 'portal-test',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const staging = tempDir();
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    storage: createS3Storage({ s3, tmpDir: staging, secret }),
    listKeys: async () => {
      const res = await client.send(new ListObjectsV2Command({ Bucket: 'portal-test' }));
      return (res.Contents ?? []).map((o) => o.Key!);
    },
    listTemp: () => walk(staging),
  };
}

afterAll(async () => {
  await s3server?.close();
  for (const d of tmpRoots) rmSync(d, { recursive: true, force: true });
});

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe.each([
  ['local disk', localHarness],
  ['S3 (s3rver)', s3Harness],
])('storage driver: %s', (_name, makeHarness) => {
  let h: Harness;
  beforeAll(async () => {
    h = await makeHarness();
  });

  const put = (
    filename: string,
    content: Buffer,
    accept: readonly FileType[],
    over: { bucket?: BucketName; owner?: string; maxBytes?: number } = {},
  ) =>
    h.storage.putFile({
      bucket: over.bucket ?? 'io_documents',
      owner: over.owner ?? 'user-1',
      filename,
      stream: Readable.from([content]),
      accept,
      maxBytes: over.maxBytes,
    });

  it('stores a file under a server-made key and reads the same bytes back', async () => {
    const f = await put('Signed IO.pdf', pdfFile, ['pdf', 'jpg', 'jpeg', 'png']);
    expect(f.key).toMatch(new RegExp(`^io_documents/user-1/${UUID}-Signed_IO\\.pdf$`));
    expect(f).toMatchObject({
      size: pdfFile.length,
      contentType: 'application/pdf',
      filename: 'Signed_IO.pdf',
    });
    const got = await h.storage.read(f.key);
    expect(got).not.toBeNull();
    expect(got!.size).toBe(pdfFile.length);
    expect(got!.contentType).toBe('application/pdf');
    expect((await bytesOf(got!.stream)).equals(pdfFile)).toBe(true);
    expect(await h.storage.stat(f.key)).toEqual({
      size: pdfFile.length,
      contentType: 'application/pdf',
    });
  });

  it('gives each upload its own key, even with the same name', async () => {
    const a = await put('same.pdf', pdfFile, ['pdf']);
    const b = await put('same.pdf', pdfFile, ['pdf']);
    expect(a.key).not.toBe(b.key);
  });

  it('reads byte ranges (for seeking in audio and video)', async () => {
    const f = await put('call.mp3', mp3File, ['mp3', 'mp4'], {
      bucket: 'compliance-questionnaires',
    });
    const part = await h.storage.read(f.key, { start: 10, end: 19 });
    expect(part!.size).toBe(mp3File.length);
    expect((await bytesOf(part!.stream)).equals(mp3File.subarray(10, 20))).toBe(true);
    const tail = await h.storage.read(f.key, { start: mp3File.length - 5 });
    expect((await bytesOf(tail!.stream)).equals(mp3File.subarray(-5))).toBe(true);
    const beyond = await h.storage.read(f.key, { start: mp3File.length + 10 });
    expect((await bytesOf(beyond!.stream)).length).toBe(0);
  });

  it('deletes a file, and deleting a missing file is fine', async () => {
    const f = await put('gone.pdf', pdfFile, ['pdf']);
    await h.storage.delete(f.key);
    expect(await h.storage.read(f.key)).toBeNull();
    expect(await h.storage.stat(f.key)).toBeNull();
    await expect(h.storage.delete(f.key)).resolves.toBeUndefined();
  });

  it('answers null for a file that was never stored', async () => {
    expect(await h.storage.read('io_documents/user-1/nothing.pdf')).toBeNull();
    expect(await h.storage.stat('io_documents/user-1/nothing.pdf')).toBeNull();
  });

  it.each([
    ['pdf', 'agreement.pdf', pdfFile, 'application/pdf'],
    ['doc', 'agreement.doc', docFile, 'application/msword'],
    [
      'docx',
      'agreement.docx',
      docxFile,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    ['png', 'logo.png', pngFile, 'image/png'],
    ['jpg', 'logo.jpg', jpgFile, 'image/jpeg'],
    ['jpeg', 'logo.JPEG', jpgFile, 'image/jpeg'],
    ['svg', 'logo.svg', svgFile, 'image/svg+xml'],
    ['mp3', 'call.mp3', mp3File, 'audio/mpeg'],
    ['mp4', 'call.mp4', mp4File, 'video/mp4'],
  ] as const)('accepts a real %s file', async (type, name, content, contentType) => {
    const f = await put(name, content, [type]);
    expect(f.contentType).toBe(contentType);
    expect(f.key.endsWith(`.${type}`)).toBe(true);
  });

  it('refuses text or a program renamed to .mp3, and keeps nothing', async () => {
    const before = await h.listKeys();
    for (const content of [textFile, exeFile, pdfFile]) {
      const err = await refusal(
        put('recording.mp3', content, ['mp3', 'mp4'], { bucket: 'compliance-questionnaires' }),
      );
      expect(err.status).toBe(415);
      expect(err.code).toBe('unsupported_media_type');
      expect(err.message).toBe(
        'recording.mp3 is not a real MP3 file. Only MP3 or MP4 files are accepted.',
      );
    }
    expect(await h.listKeys()).toEqual(before);
    expect(h.listTemp()).toEqual([]);
  });

  it('refuses an extension that is not accepted, even with valid content', async () => {
    const err = await refusal(put('agreement.pdf', pdfFile, ['mp3', 'mp4']));
    expect(err.status).toBe(415);
    expect(err.message).toBe('Only MP3 or MP4 files are accepted.');
    const noExt = await refusal(put('agreement', pdfFile, ['pdf', 'doc', 'docx']));
    expect(noExt.message).toBe('Only PDF, DOC or DOCX files are accepted.');
  });

  it('refuses content that does not match its extension (a PNG named .jpg)', async () => {
    const err = await refusal(put('photo.jpg', pngFile, ['png', 'jpg', 'jpeg']));
    expect(err.status).toBe(415);
    expect(err.message).toContain('is not a real JPG file');
  });

  it('refuses SVGs that could run script, with a clear message', async () => {
    for (const [kind, content] of Object.entries(unsafeSvgFiles)) {
      const err = await refusal(
        put(`${kind}.svg`, content, ['png', 'jpg', 'jpeg', 'svg'], { bucket: 'logos' }),
      );
      expect(err.status, kind).toBe(415);
      expect(err.message, kind).toMatch(/SVG/);
    }
    const notSvg = await refusal(
      put('logo.svg', Buffer.from('<html><body>hi</body></html>'), ['svg'], { bucket: 'logos' }),
    );
    expect(notSvg.message).toBe('logo.svg is not a valid SVG image. Only SVG files are accepted.');
  });

  it('caps the size while streaming: 413 with the limit in the message, nothing kept', async () => {
    const before = await h.listKeys();
    const big = Buffer.concat([mp3File, Buffer.alloc(4096)]);
    const err = await refusal(put('long.mp3', big, ['mp3'], { maxBytes: 2048 }));
    expect(err.status).toBe(413);
    expect(err.code).toBe('payload_too_large');
    expect(err.message).toBe('The file is larger than 2 KB.');

    // The logos bucket caps at 5 MB on its own.
    const chunks = [pngFile, ...Array.from({ length: 6 }, () => Buffer.alloc(1024 * 1024))];
    const huge = await refusal(
      h.storage.putFile({
        bucket: 'logos',
        owner: 'settings',
        filename: 'logo.png',
        stream: Readable.from(chunks),
        accept: ['png'],
      }),
    );
    expect(huge.status).toBe(413);
    expect(huge.message).toBe('The file is larger than 5 MB.');
    expect(await h.listKeys()).toEqual(before);
    expect(h.listTemp()).toEqual([]);
  });

  it('refuses an empty file', async () => {
    const err = await refusal(put('empty.pdf', Buffer.alloc(0), ['pdf']));
    expect(err.status).toBe(400);
    expect(err.message).toBe('The file empty.pdf is empty.');
  });

  it('sanitizes the name: no directories, no special characters, letters kept', async () => {
    const cases: [string, string][] = [
      ['../../etc/pass wd.pdf', 'pass_wd.pdf'],
      ['C:\\Users\\me\\Contract (final).PDF', 'Contract_final.pdf'],
      ['Договор №1.pdf', 'Договор_1.pdf'],
      ['..pdf', 'file.pdf'],
      ['<script>alert(1)</script>.pdf', 'script.pdf'],
      ['a<b>"c"|d?*.pdf', 'a_b_c_d.pdf'],
      [`${'a'.repeat(300)}.pdf`, `${'a'.repeat(96)}.pdf`],
    ];
    for (const [given, expected] of cases) {
      const f = await put(given, pdfFile, ['pdf']);
      expect(f.filename).toBe(expected);
      expect(f.key).toBe(`io_documents/user-1/${f.key.split('/')[2]!.slice(0, 36)}-${expected}`);
      expect(await h.storage.stat(f.key)).not.toBeNull();
    }
  });

  it('refuses an owner that is not a plain id', async () => {
    await expect(put('a.pdf', pdfFile, ['pdf'], { owner: '../x' })).rejects.toThrow(/owner/);
  });

  it('never reads or deletes outside its buckets', async () => {
    const f = await put('real.pdf', pdfFile, ['pdf']);
    const [, owner, name] = f.key.split('/');
    for (const key of [
      `io_documents/${owner}/../${owner}/${name}`,
      `io_documents/./${owner}/${name}`,
      `io_documents//${owner}/${name}`,
      `/io_documents/${owner}/${name}`,
      `io_documents\\${owner}\\${name}`,
      `io_documents/${owner}/${name}\0`,
      '../../../../etc/passwd',
      'io_documents/../../../../etc/passwd',
      'unknown-bucket/x.pdf',
      '.tmp/x.part',
    ]) {
      expect(await h.storage.read(key), key).toBeNull();
      expect(await h.storage.stat(key), key).toBeNull();
      await h.storage.delete(key);
    }
    expect(await h.storage.stat(f.key)).not.toBeNull();
  });

  it('makes signed and public URLs', async () => {
    const f = await put('logo.png', pngFile, ['png'], { bucket: 'logos', owner: 'settings' });
    expect(h.storage.publicUrl(f.key)).toBe(`/files/public/${f.key}`);
    const signed = new URL(h.storage.signedUrl(f.key), 'http://x');
    expect(signed.pathname).toBe(`/files/${f.key}`);
    const expires = Number(signed.searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeGreaterThan(3590);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(3600);
    expect(signed.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const doc = await put('a.pdf', pdfFile, ['pdf']);
    expect(() => h.storage.publicUrl(doc.key)).toThrow(/not public/);
    expect(() => h.storage.signedUrl('../etc/passwd')).toThrow();
  });
});

describe('local driver on disk', () => {
  it('keeps files under DATA_DIR/storage/{bucket}/{owner}/ and stages nothing elsewhere', async () => {
    const h = await localHarness();
    const outside = path.join(path.dirname(h.root), 'outside.txt');
    writeFileSync(outside, 'secret');
    const f = await h.storage.putFile({
      bucket: 'marketing_agreements',
      owner: 'u1',
      filename: 'a.docx',
      stream: Readable.from([docxFile]),
      accept: ['pdf', 'doc', 'docx'],
    });
    expect(existsSync(path.join(h.root, ...f.key.split('/')))).toBe(true);
    expect(h.listTemp()).toEqual([]);
    await h.storage.delete('marketing_agreements/../../outside.txt');
    await h.storage.delete('marketing_agreements/u1/../../../outside.txt');
    expect(existsSync(outside)).toBe(true);
    expect(await h.storage.read('marketing_agreements/../../outside.txt')).toBeNull();
    const stream = (await h.storage.read(f.key))!.stream;
    expect((await text(stream)).length).toBeGreaterThan(0);
  });
});

describe('staging area', () => {
  it('removes uploads a crashed process left behind, and only those', async () => {
    const dir = tempDir();
    const old = path.join(dir, 'old.part');
    const fresh = path.join(dir, 'fresh.part');
    const other = path.join(dir, 'keep.txt');
    for (const f of [old, fresh, other]) writeFileSync(f, 'x');
    const twoHours = 2 * 60 * 60 * 1000;
    utimesSync(old, new Date(Date.now() - twoHours), new Date(Date.now() - twoHours));
    expect(await sweepStaleUploads(dir)).toBe(1);
    expect([existsSync(old), existsSync(fresh), existsSync(other)]).toEqual([false, true, true]);
    expect(await sweepStaleUploads(path.join(dir, 'missing'))).toBe(0);
  });
});

describe('createStorage with S3 settings, served by /files', () => {
  it('picks S3 from config and streams whole files and ranges from it', async () => {
    const { server, port } = await startS3rver('portal-files');
    const dataDir = tempDir();
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: secret,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: 'portal-files',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    });
    const app = Fastify({ logger: false });
    try {
      app.decorate('config', config);
      app.decorate('storage', createStorage(config));
      await app.register(filesRoutes, { prefix: '/files' });
      const f = await app.storage.putFile({
        bucket: 'compliance-questionnaires',
        owner: 'p1',
        filename: 'call.mp4',
        stream: Readable.from([mp4File]),
        accept: ['mp3', 'mp4'],
      });
      // Nothing landed on local disk: the file is in S3.
      expect(existsSync(path.join(dataDir, 'storage', 'compliance-questionnaires'))).toBe(false);
      const url = app.storage.signedUrl(f.key);
      const whole = await app.inject(url);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(whole.rawPayload.equals(mp4File)).toBe(true);
      const part = await app.inject({ url, headers: { range: 'bytes=4-11' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 4-11/${mp4File.length}`);
      expect(part.rawPayload.toString('latin1')).toBe('ftypisom');
    } finally {
      await app.close();
      await server.close();
    }
  });
});
