import { describe, expect, it } from 'vitest';
import { MicroBatcher } from './micro-batch.ts';

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const p = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { p, open };
}

describe('MicroBatcher', () => {
  it('sends a lone item at once, and what arrives meanwhile together as the next batch', async () => {
    const batches: number[][] = [];
    const first = gate();
    const b = new MicroBatcher<number, string>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await first.p;
        return items.map((i) => `#${i}`);
      },
      { maxInFlight: 1, maxBatch: 3 },
    );
    const answers = [b.submit(1), b.submit(2), b.submit(3), b.submit(4), b.submit(5)];
    // The first went alone; the four that came while it ran wait for it.
    expect(batches).toEqual([[1]]);
    first.open();
    expect(await Promise.all(answers)).toEqual(['#1', '#2', '#3', '#4', '#5']);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
    expect(b.sent).toEqual({ batches: 3, items: 5 });
  });

  it('runs up to maxInFlight batches at once', async () => {
    let running = 0;
    let most = 0;
    const b = new MicroBatcher<number, number>(
      async (items) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return items;
      },
      { maxInFlight: 3, maxBatch: 2 },
    );
    const out = await Promise.all(Array.from({ length: 20 }, (_, i) => b.submit(i)));
    expect(out).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(most).toBe(3);
  });

  it('fails every item of a batch that fails, and goes on with the next', async () => {
    const first = gate();
    let n = 0;
    const b = new MicroBatcher<number, number>(
      async (items) => {
        n++;
        if (n === 1) await first.p;
        if (n === 2) throw new Error('database went away');
        return items;
      },
      { maxInFlight: 1, maxBatch: 10 },
    );
    const a = b.submit(1);
    const failing = [b.submit(2), b.submit(3)].map((p) => p.catch((e: Error) => e.message));
    first.open();
    expect(await a).toBe(1);
    expect(await Promise.all(failing)).toEqual(['database went away', 'database went away']);
    expect(await b.submit(4)).toBe(4);
  });

  it('refuses a batch that answers fewer results than items', async () => {
    const b = new MicroBatcher<number, number>(async () => [], { maxInFlight: 1, maxBatch: 5 });
    await expect(b.submit(1)).rejects.toThrow('A batch of 1 answered 0 results.');
  });

  it('says when an item has to wait for a free batch, and only then', async () => {
    const first = gate();
    let waits = 0;
    const b = new MicroBatcher<number, number>(
      async (items) => {
        await first.p;
        return items;
      },
      { maxInFlight: 2, maxBatch: 10, onBacklog: () => waits++ },
    );
    const answers = [b.submit(1), b.submit(2)];
    // Two batches in flight, nothing waiting yet.
    expect(waits).toBe(0);
    answers.push(b.submit(3), b.submit(4));
    expect(waits).toBe(2);
    first.open();
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4]);
  });

  it('while gatherMs asks for it, a small batch waits for more before it leaves', async () => {
    const batches: number[][] = [];
    let gather = 30;
    const b = new MicroBatcher<number, number>(
      async (items) => {
        batches.push(items);
        return items;
      },
      { maxInFlight: 1, maxBatch: 4, gatherMs: () => gather },
    );
    const first = [b.submit(1), b.submit(2), b.submit(3)];
    // Nothing left at once: the first batch gathers.
    expect(batches).toEqual([]);
    expect(await Promise.all(first)).toEqual([1, 2, 3]);
    expect(batches).toEqual([[1, 2, 3]]);
    // A full batch does not wait.
    const full = [b.submit(4), b.submit(5), b.submit(6), b.submit(7)];
    expect(batches).toHaveLength(2);
    await Promise.all(full);
    await new Promise((r) => setImmediate(r)); // the batch's slot is given back after its answers
    // Without the ask, a lone item leaves at once.
    gather = 0;
    const lone = b.submit(8);
    expect(batches.at(-1)).toEqual([8]);
    expect(await lone).toBe(8);
  });
});
