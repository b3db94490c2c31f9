import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkExactlyOnce,
  type Portal,
  payoutsByNote,
  setUpPayee,
  sleep,
  startPortal,
  tempDataDir,
  writeLoad,
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
    let current = await startPortal({ dataDir });
    portal = current;
    const { token, publisherId } = await setUpPayee(current.url);
    let stop = false;
    const { report, done } = writeLoad({
      url: () => current.url,
      token,
      publisherId,
      concurrency: 10,
      stop: () => stop,
    });
    let ackedBeforeKill = 0;
    try {
      for (let round = 0; round < 1; round++) {
        await sleep(2000);
        ackedBeforeKill = report.acknowledged.size;
        await current.kill('SIGKILL');
        current = await startPortal({ dataDir });
        portal = current;
      }
      await sleep(1500);
    } finally {
      stop = true;
      await done;
    }
    expect(report.unexpected).toEqual([]);
    const counts = await payoutsByNote(current.url, token, publisherId);
    const { lost, duplicated, phantom } = checkExactlyOnce(report, counts);
    console.info(
      `[portal-kill-pglite] SIGKILL: writes attempted ${report.attempted.size}, acknowledged ${report.acknowledged.size}, lost ${lost.length}, duplicated ${duplicated.length}`,
    );
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(phantom).toEqual([]);
    // The load really ran on both sides of the kill.
    expect(ackedBeforeKill).toBeGreaterThan(0);
    expect(report.acknowledged.size).toBeGreaterThan(ackedBeforeKill);
  }, 240_000);
});
