import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';

/** A small seeded generator of numbers in [0, 1), so a failure can be replayed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The rows of a raw SQL statement, typed as the caller says. */
export async function sqlRows<T>(on: DbOrTx, q: SQL): Promise<T[]> {
  return ((await on.execute(q)) as unknown as { rows: T[] }).rows;
}
