import path from 'node:path';
import type { Config } from '../config.ts';
import { createLocalStorage } from './local.ts';
import { createS3Storage } from './s3.ts';
import type { Storage } from './storage.ts';

export type { BucketName, FileType, Storage, StoredFile } from './storage.ts';

/** S3 when S3_BUCKET is configured, else local disk under DATA_DIR/storage. */
export function createStorage(config: Config): Storage {
  if (config.s3) {
    return createS3Storage({
      s3: config.s3,
      tmpDir: path.join(config.dataDir, 'tmp', 'uploads'),
      secret: config.jwtSecret,
    });
  }
  return createLocalStorage({
    root: path.join(config.dataDir, 'storage'),
    secret: config.jwtSecret,
  });
}
