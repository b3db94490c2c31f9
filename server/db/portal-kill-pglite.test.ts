import { rmSync } from 'node:fs';
import { afterAll, describe, it } from 'vitest';
import {
  killUnderLoad,
  type Portal,
  setUpPayee,
  startPortal,
  tempDataDir,
} from '../test/fault-support.ts';

/**
 * SIGKILL of the portal under write load on the embedded PGlite (issue 11): the real portal as a
 * child process with its database under DATA_DIR, ten concurrent writers recording payouts,
 * SIGKILL, restart on the same folder: every acknowledged write is there exactly once.
 *
 * It runs in the PGlite pass of the suite (no TEST_DATABASE_URL) or with FAULT_TESTS=1;
 * server/db/db-faults.test.ts covers PostgreSQL in the other pass.
 */
const enabled = !process.env.TEST_DATABASE_URL || Boolean(process.env.FAULT_TESTS);

describe.runIf(enabled)('SIGKILL of the portal on PGlite under write load', () => {
  const dataDir = tempDataDir();
  let portal: Portal | undefined;

  afterAll(async () => {
    await portal?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write exactly once across a SIGKILL and a restart', async () => {
    portal = await startPortal({ dataDir });
    const { token, publisherId } = await setUpPayee(portal.url);
    await killUnderLoad({
      label: '[portal-kill-pglite] SIGKILL',
      portal,
      token,
      publisherId,
      restart: async () => {
        portal = await startPortal({ dataDir });
        return portal;
      },
      settleMs: 1500,
    });
  }, 240_000);
});
