import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../http/error-handler.ts';
import { mp3File, mp4File, pdfFile, textFile } from '../test/fixtures.ts';
import { multipartBody } from '../test/multipart.ts';
import { createLocalStorage } from './local.ts';
import { MULTIPART_LIMITS, receiveUploads } from './upload.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'portal-upload-'));
const root = path.join(dir, 'storage');
const storage = createLocalStorage({ root, secret: randomBytes(32).toString('hex') });
let app: FastifyInstance;

/** Every stored file (staging area excluded). */
function storedFiles(): string[] {
  const walk = (d: string): string[] =>
    existsSync(d)
      ? readdirSync(d).flatMap((n) => {
          const p = path.join(d, n);
          return statSync(p).isDirectory() ? walk(p) : [path.relative(root, p)];
        })
      : [];
  return walk(root).filter((p) => !p.startsWith('.tmp'));
}

beforeAll(async () => {
  app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  // The compliance form's rules: 1-3 media files and exactly one document.
  app.post('/compliance', async (req) => {
    const { files, fields } = await receiveUploads(req, storage, {
      owner: 'publisher-1',
      files: {
        media: {
          bucket: 'compliance-questionnaires',
          accept: ['mp3', 'mp4'],
          min: 1,
          max: 3,
          messages: { too_many_files: 'You can upload a maximum of 3 media files.' },
        },
        document: {
          bucket: 'compliance-questionnaires',
          accept: ['pdf', 'doc', 'docx'],
          min: 1,
          max: 1,
          maxBytes: 2048,
        },
      },
    });
    return { files, fields };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (parts: Parameters<typeof multipartBody>[0]) =>
  app.inject({ method: 'POST', url: '/compliance', ...multipartBody(parts) });
/** Posts `parts` to a route that must refuse them, checking nothing stays stored; the answer. */
async function postRefused(parts: Parameters<typeof multipartBody>[0]) {
  const before = storedFiles();
  const res = await post(parts);
  expect(storedFiles()).toEqual(before);
  return res;
}
/** postRefused, and the refusal's status and whole error body. */
async function expectRefused(
  parts: Parameters<typeof multipartBody>[0],
  status: number,
  error: { code: string; message: string; details?: Record<string, string[]> },
) {
  const res = await postRefused(parts);
  expect(res.statusCode).toBe(status);
  expect(res.json().error).toEqual(error);
}

describe('receiveUploads', () => {
  it('stores every file of every field and returns the other fields', async () => {
    const res = await post([
      { field: 'offer_id', value: 'offer-9' },
      { field: 'media', filename: 'call 1.mp3', content: mp3File, contentType: 'audio/mpeg' },
      { field: 'media', filename: 'call2.mp4', content: mp4File },
      { field: 'document', filename: 'questionnaire.pdf', content: pdfFile },
      { field: 'notes', value: 'See attached' },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.fields).toEqual({ offer_id: 'offer-9', notes: 'See attached' });
    expect(body.files.media.map((f: { filename: string }) => f.filename)).toEqual([
      'call_1.mp3',
      'call2.mp4',
    ]);
    expect(body.files.document[0]).toMatchObject({
      filename: 'questionnaire.pdf',
      contentType: 'application/pdf',
      size: pdfFile.length,
    });
    for (const f of [...body.files.media, ...body.files.document]) {
      expect(f.key).toMatch(/^compliance-questionnaires\/publisher-1\//);
      expect(await storage.stat(f.key)).not.toBeNull();
    }
  });

  it('refuses a fourth media file with the caller’s message and keeps nothing', async () => {
    await expectRefused(
      [
        { field: 'document', filename: 'q.pdf', content: pdfFile },
        ...[1, 2, 3, 4].map((n) => ({ field: 'media', filename: `c${n}.mp3`, content: mp3File })),
      ],
      400,
      {
        code: 'too_many_files',
        message: 'You can upload a maximum of 3 media files.',
        details: { media: ['You can upload a maximum of 3 media files.'] },
      },
    );
  });

  it('refuses a missing required field and removes the files already stored', async () => {
    const res = await postRefused([{ field: 'media', filename: 'c.mp3', content: mp3File }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Please choose a file for document.');
  });

  it('treats an empty file input (no file name) as nothing chosen', async () => {
    const res = await post([
      { field: 'media', filename: 'c.mp3', content: mp3File },
      { field: 'document', filename: '', content: Buffer.alloc(0) },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Please choose a file for document.');
  });

  it('refuses a file of the wrong type (by content) and rolls back the earlier ones', async () => {
    await expectRefused(
      [
        { field: 'media', filename: 'good.mp3', content: mp3File },
        { field: 'media', filename: 'fake.mp3', content: textFile },
        { field: 'document', filename: 'q.pdf', content: pdfFile },
      ],
      415,
      {
        code: 'unsupported_media_type',
        message: 'fake.mp3 is not a real MP3 file. Only MP3 or MP4 files are accepted.',
      },
    );
  });

  it('enforces the per-field size cap with 413', async () => {
    const big = Buffer.concat([pdfFile, Buffer.alloc(4096, 0x20)]);
    await expectRefused(
      [
        { field: 'media', filename: 'c.mp3', content: mp3File },
        { field: 'document', filename: 'big.pdf', content: big },
      ],
      413,
      { code: 'payload_too_large', message: 'The file is larger than 2 KB.' },
    );
  });

  it('refuses files in a field the route does not take', async () => {
    const res = await post([{ field: 'avatar', filename: 'a.mp3', content: mp3File }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Unexpected file field "avatar".');
  });

  it('refuses a request that is not multipart with 415', async () => {
    const res = await app.inject({ method: 'POST', url: '/compliance', payload: { a: 1 } });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
  });

  it('answers over a real socket when an upload is refused part-way', async () => {
    const { payload, headers } = multipartBody([
      { field: 'media', filename: 'fake.mp3', content: textFile },
      { field: 'media', filename: 'big.mp3', content: Buffer.alloc(2 * 1024 * 1024) },
      { field: 'document', filename: 'q.pdf', content: pdfFile },
    ]);
    const port = (app.server.address() as AddressInfo).port;
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/compliance',
          method: 'POST',
          headers: { ...headers, 'content-length': payload.length },
        },
        (r) => {
          let body = '';
          r.on('data', (c) => {
            body += c;
          });
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body).error.code).toBe('unsupported_media_type');
  });
});
