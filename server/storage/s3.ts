import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import { composeStorage, type StorageDriver } from './driver.ts';
import type { Storage } from './storage.ts';

export type S3Settings = NonNullable<Config['s3']>;

function isMissing(err: unknown): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  return (
    err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404
  );
}

/** Total size from a 'bytes 0-99/1234' Content-Range header. */
function totalFromContentRange(value: string | undefined): number | null {
  const m = value ? /\/(\d+)$/.exec(value) : null;
  return m ? Number(m[1]) : null;
}

/** A client of the configured S3-compatible service (the driver's, and the backup's listing). */
export function createS3Client(s3: S3Settings): S3Client {
  return new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    credentials:
      s3.accessKeyId && s3.secretAccessKey
        ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
        : undefined,
    // S3-compatible servers (MinIO, s3rver, R2...) do not all accept the newer default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * The S3 driver: one S3 bucket (config.s3.bucket), our bucket name as the first part of every
 * object key. Uploads are staged in tmpDir and checked before anything reaches S3.
 */
export function createS3Driver(s3: S3Settings, tmpDir: string): StorageDriver {
  const client = createS3Client(s3);
  const Bucket = s3.bucket;

  return {
    tmpDir,
    async commit(tempPath, key, meta) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: key,
            Body: createReadStream(tempPath),
            ContentLength: meta.size,
            ContentType: meta.contentType,
          }),
        );
      } finally {
        await rm(tempPath, { force: true });
      }
    },
    async remove(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    },
    async open(key, range) {
      if (range) {
        // S3 answers 416 for a start past the end; ask for the size first then.
        const s = await this.stat(key);
        if (!s) return null;
        if (range.start >= s.size) return { stream: Readable.from([]), size: s.size };
      }
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
          }),
        );
        const size = totalFromContentRange(res.ContentRange) ?? res.ContentLength ?? 0;
        return { stream: res.Body as Readable, size };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async stat(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: res.ContentLength ?? 0 };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
  };
}

/** Storage on an S3-compatible service. */
export function createS3Storage(opts: { s3: S3Settings; tmpDir: string; secret: string }): Storage {
  return composeStorage(createS3Driver(opts.s3, opts.tmpDir), { secret: opts.secret });
}
