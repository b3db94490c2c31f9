// Groups work that arrives together into batches, without waiting on a timer: at most
// `maxInFlight` batches run at once, and whatever arrives meanwhile waits and leaves as the
// next batch (up to `maxBatch` items). A lone request goes at once, alone; under load, each
// batch carries what arrived during the previous one. Used by the call postbacks
// (server/modules/ingest/lead-ingest.ts): one round trip and one commit for many calls.

import { after } from '../../jobs/pressure.ts';

export type BatchRunner<T, R> = (items: T[]) => Promise<R[]>;

type Waiting<T, R> = { item: T; resolve: (r: R) => void; reject: (e: unknown) => void };

export class MicroBatcher<T, R> {
  private queue: Waiting<T, R>[] = [];
  private inFlight = 0;
  /** Batches sent and items they carried since start (metrics and tests). */
  readonly sent = { batches: 0, items: 0 };

  constructor(
    private readonly run: BatchRunner<T, R>,
    private readonly opts: {
      maxInFlight: number;
      maxBatch: number;
      /** Called when an item has to wait: every batch slot is busy (server/jobs/pressure.ts). */
      onBacklog?: () => void;
      /**
       * Milliseconds a batch smaller than maxBatch waits for more items before it leaves (0 or
       * absent: it leaves at once): fewer, bigger batches while the machine is busy.
       */
      gatherMs?: () => number;
    },
  ) {}
  private gathering = false;

  /** The item's result, from the batch it leaves in. */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
      if (this.queue.length > 0) this.opts.onBacklog?.();
    });
  }

  private pump(gathered = false): void {
    while (this.inFlight < this.opts.maxInFlight && this.queue.length > 0) {
      if (!gathered && this.queue.length < this.opts.maxBatch) {
        const wait = this.opts.gatherMs?.() ?? 0;
        if (wait > 0) {
          if (!this.gathering) {
            this.gathering = true;
            // Kept alive: the items waiting were promised an answer.
            after(
              wait,
              () => {
                this.gathering = false;
                this.pump(true);
              },
              true,
            );
          }
          return;
        }
      }
      gathered = false;
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.inFlight++;
      this.sent.batches++;
      this.sent.items += batch.length;
      void this.send(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async send(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((w) => w.item));
      if (results.length !== batch.length) {
        throw new Error(`A batch of ${batch.length} answered ${results.length} results.`);
      }
      batch.forEach((w, i) => {
        w.resolve(results[i] as R);
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
