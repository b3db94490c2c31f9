import { existsSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { docxFile, mp3File, pdfFile, pngFile, samePicture, svgFile } from '../test/fixtures.ts';
import { SVG_CSP } from './files.routes.ts';
import { createUrlSigner } from './signed-url.ts';
import type { BucketName, FileType, StoredFile } from './storage.ts';

let t: TestApp;
let pdf: StoredFile;
let mp3: StoredFile;
let docx: StoredFile;
let logo: StoredFile;
let svg: StoredFile;
let baseUrl: string;

const put = (bucket: BucketName, filename: string, content: Buffer, accept: FileType[]) =>
  t.app.storage.putFile({
    bucket,
    owner: 'owner-1',
    filename,
    stream: Readable.from([content]),
    accept,
  });

beforeAll(async () => {
  t = await buildTestApp();
  pdf = await put('io_documents', 'Insertion Order.pdf', pdfFile, ['pdf']);
  mp3 = await put('compliance-questionnaires', 'call.mp3', mp3File, ['mp3', 'mp4']);
  docx = await put('marketing_agreements', 'Договор.docx', docxFile, ['pdf', 'doc', 'docx']);
  logo = await put('logos', 'logo.png', pngFile, ['png', 'jpg', 'jpeg', 'svg']);
  svg = await put('logos', 'logo.svg', svgFile, ['png', 'jpg', 'jpeg', 'svg']);
  // A file next to the storage root that no URL may ever reach.
  writeFileSync(path.join(t.config.dataDir, 'secret.txt'), 'top secret');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** A raw HTTP GET that sends the path exactly as written (no client-side normalizing). */
function rawGet(rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}/`, { path: rawPath }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

function tamper(url: string, change: (u: URL) => void): string {
  const u = new URL(url, 'http://x');
  change(u);
  return `${u.pathname}${u.search}`;
}

describe('private files through signed URLs', () => {
  it('serves a signed PDF with its type, an inline disposition and nosniff', async () => {
    const res = await t.app.inject(t.app.storage.signedUrl(pdf.key));
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(pdfFile)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(pdfFile.length));
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="Insertion_Order.pdf"; filename*=UTF-8''Insertion_Order.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
  });

  it('sends Word files as attachments with the original (UTF-8) name', async () => {
    const res = await t.app.inject(t.app.storage.signedUrl(docx.key));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_______.docx"; filename*=UTF-8''${encodeURIComponent('Договор.docx')}`,
    );
  });

  it('answers Range requests with 206 so audio and video can seek', async () => {
    const url = t.app.storage.signedUrl(mp3.key);
    const res = await t.app.inject({ url, headers: { range: 'bytes=100-199' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['content-range']).toBe(`bytes 100-199/${mp3File.length}`);
    expect(res.headers['content-length']).toBe('100');
    expect(res.rawPayload.equals(mp3File.subarray(100, 200))).toBe(true);

    const suffix = await t.app.inject({ url, headers: { range: 'bytes=-10' } });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(mp3File.subarray(-10))).toBe(true);

    const open = await t.app.inject({ url, headers: { range: 'bytes=1200-' } });
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe(
      `bytes 1200-${mp3File.length - 1}/${mp3File.length}`,
    );

    const beyond = await t.app.inject({ url, headers: { range: `bytes=${mp3File.length}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${mp3File.length}`);
    expect(beyond.json().error.code).toBe('range_not_satisfiable');
  });

  it('refuses a tampered signature, path or expiry with 403 invalid_signature', async () => {
    const url = t.app.storage.signedUrl(pdf.key);
    const sig = new URL(url, 'http://x').searchParams.get('sig')!;
    const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    const tampered = [
      tamper(url, (u) => u.searchParams.set('sig', flipped)),
      tamper(url, (u) =>
        u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 60)),
      ),
      tamper(url, (u) => {
        u.pathname = `/files/${docx.key}`;
      }),
      tamper(url, (u) => {
        u.pathname = u.pathname.replace('/files/io_documents/', '/files/marketing_agreements/');
      }),
      tamper(url, (u) => u.searchParams.delete('sig')),
      tamper(url, (u) => u.searchParams.delete('expires')),
      `/files/${pdf.key}`,
    ];
    for (const bad of tampered) {
      const res = await t.app.inject(bad);
      expect(res.statusCode, bad).toBe(403);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json().error, bad).toEqual({
        code: 'invalid_signature',
        message: 'This file link is not valid. Open the file again from the portal.',
      });
    }
  });

  it('refuses an expired link with 403 url_expired', async () => {
    const url = t.app.storage.signedUrl(pdf.key, 1);
    const now = Date.now;
    Date.now = () => now() + 5_000;
    try {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('url_expired');
      expect(res.json().error.message).toContain('expired');
    } finally {
      Date.now = now;
    }
  });

  it('answers a JSON 404 for a correctly signed link to a file that is gone', async () => {
    const gone = await put('io_documents', 'gone.pdf', pdfFile, ['pdf']);
    const url = t.app.storage.signedUrl(gone.key);
    await t.app.storage.delete(gone.key);
    const res = await t.app.inject(url);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({ code: 'not_found', message: 'File not found.' });
  });

  it('never serves a private bucket through the public path', async () => {
    for (const key of [pdf.key, mp3.key, docx.key]) {
      const res = await t.app.inject(`/files/public/${key}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });
});

describe('public files', () => {
  it('serves a logo at its public URL, cacheable', async () => {
    const res = await t.app.inject(t.app.storage.publicUrl(logo.key));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(/^inline; /);
    expect(res.headers['cache-control']).toContain('public');
    expect(await samePicture(res.rawPayload, pngFile)).toBe(true);
  });

  it('serves an SVG logo with a policy under which it can never run script', async () => {
    const res = await t.app.inject(t.app.storage.publicUrl(svg.key));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe(SVG_CSP);
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 404 for unknown buckets and files', async () => {
    for (const url of ['/files/public/logos/owner-1/nothing.png', '/files/public/nope/x.png']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });
});

describe('path traversal', () => {
  const attempts = [
    '/files/public/logos/../../secret.txt',
    '/files/public/logos/%2e%2e/%2e%2e/secret.txt',
    '/files/public/logos/%2E%2E%2F%2E%2E%2Fsecret.txt',
    '/files/public/logos/owner-1/..%2f..%2f..%2fsecret.txt',
    '/files/public/logos/..%5c..%5csecret.txt',
    '/files/public/logos/%2fetc%2fpasswd',
    '/files/public/logos/owner-1/%00.png',
    '/files/public/..%2f..%2fsecret.txt',
    '/files/io_documents/../../secret.txt?expires=9999999999&sig=x',
    '/files/io_documents/%2e%2e/%2e%2e/secret.txt?expires=9999999999&sig=x',
  ];

  it('never reads outside storage, whatever the encoding (via inject)', async () => {
    expect(existsSync(path.join(t.config.dataDir, 'secret.txt'))).toBe(true);
    for (const url of attempts) {
      const res = await t.app.inject(url);
      expect([400, 403, 404], url).toContain(res.statusCode);
      expect(res.body, url).not.toContain('top secret');
    }
  });

  it('never reads outside storage over a real socket with raw ".." segments', async () => {
    for (const url of attempts) {
      const res = await rawGet(url);
      expect([400, 403, 404], url).toContain(res.status);
      expect(res.body, url).not.toContain('top secret');
    }
  });

  it('refuses even a correctly signed URL for a path with ".."', async () => {
    const signer = createUrlSigner(t.config.jwtSecret);
    const expires = Math.floor(Date.now() / 1000) + 600;
    for (const p of ['../secret.txt', 'owner-1/../../secret.txt', 'owner-1/../../../secret.txt']) {
      const sig = signer.sign('logos', p, expires);
      const res = await rawGet(`/files/logos/${p}?expires=${expires}&sig=${sig}`);
      expect(res.status, p).toBe(404);
      expect(res.body, p).not.toContain('top secret');
    }
  });
});
