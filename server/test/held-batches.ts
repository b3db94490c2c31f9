import { vi } from 'vitest';
import type { Db } from '../db/client.ts';
import { MicroBatcher } from '../modules/ingest/index.ts';
import { gate, until } from './waiting.ts';

/**
 * Sends calls while the database is slow to answer its `execute` statements (the writes; the
 * query builder's reads are not held), so the first calls
 * stay in flight while all `n` reach the call batcher and the others leave together in shared
 * batches, on PostgreSQL and on PGlite alike. PGlite answers each query before the next request
 * is read, so without the hold every call would leave alone there. `whileHeld` runs once all
 * have reached the batcher, before the database answers.
 */
export async function sendInHeldBatches<T>(
  db: Db,
  n: number,
  send: () => Promise<T>,
  whileHeld?: () => void,
): Promise<T> {
  const execute = db.execute.bind(db);
  const slow = gate();
  const writes = vi.spyOn(db, 'execute').mockImplementation((async (query) => {
    await slow.p;
    return execute(query);
  }) as typeof db.execute);
  const submits = vi.spyOn(MicroBatcher.prototype, 'submit');
  try {
    const sent = send();
    await until(() => submits.mock.calls.length === n, `all ${n} calls reach the batcher`);
    whileHeld?.();
    slow.open();
    return await sent;
  } finally {
    slow.open();
    writes.mockRestore();
    submits.mockRestore();
  }
}
