import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { appOn, type TestApp } from './build-test-app.ts';
import { freePort } from './free-port.ts';

export type SecondInstance = { base: string; close(): Promise<void> };

/**
 * A second app instance on the database of `first` (and its JWT secret), with its own DATA_DIR,
 * listening on a free port: another portal process of the same network.
 */
export async function listenSecondInstance(
  first: TestApp,
  env: Record<string, string>,
): Promise<SecondInstance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-second-'));
  const config = loadConfig({
    ...env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: first.config.jwtSecret,
    PUBLIC_URL: base,
  });
  const app = await appOn(config, first.database);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    base,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
