import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import { addDays, dayIn } from '../../../contract/reports.ts';
import type { DbOrTx } from '../../db/client.ts';
import { networkTimeZone } from '../../db/settings.ts';
import { registerJob } from '../../jobs/runtime.ts';
import { keepBlocks, keptBlockSizes } from './report-cache.ts';
import { blocksOfLastYear } from './report-calendar.ts';
import { keyGrouped, NETWORK_OWNER } from './reports.queries.ts';

/** Network report dimensions whose blocks are kept in memory (see keyedRows). */
const WARM_DIMENSIONS = ['publisher', 'offer', 'state'] as const;

/**
 * Reads the blocks of the last year of the network's offer, publisher and state reports into
 * memory (those not kept already); answers how many it read. `stop` ends it early.
 */
export async function warmReportBlocks(db: DbOrTx, stop?: () => boolean): Promise<number> {
  const tz = await networkTimeZone(db);
  const lastPast = addDays(dayIn(tz, new Date()), -1);
  let read = 0;
  for (const dim of WARM_DIMENSIONS) {
    read += await keepBlocks(db, {
      id: `${NETWORK_OWNER}|${dim}`,
      tz,
      blocks: blocksOfLastYear(lastPast),
      grouped: keyGrouped(NETWORK_OWNER, dim),
      stop,
    });
  }
  return read;
}

/**
 * After a start, reads the blocks of the last year of the network's offer, publisher and state
 * reports into memory, a few at a time in the background, so that the first reports of any
 * range answer from memory (1M leads of 10k publishers: ~1.4k blocks, ~1.2M keys, ~3 s of one
 * core and ~91 MB, once). Requests meanwhile share the reads under way; a failure is left to
 * them.
 */
export function registerReportWarmUp(app: FastifyInstance): void {
  let done = 0;
  // What an operator watches: the warm-up, and how much the kept blocks hold.
  if (app.hasDecorator('metricsRegistry')) {
    const registers = [app.metricsRegistry];
    new Gauge({
      name: 'report_warm_up_done',
      help: '1 once the blocks of the last year of the network reports are read into memory',
      registers,
      collect() {
        this.set(done);
      },
    });
    new Gauge({
      name: 'report_blocks_kept',
      help: 'Blocks of days (days, dekads, months, quarters) of report sums kept in memory',
      registers,
      collect() {
        this.set(keptBlockSizes().blocks);
      },
    });
    new Gauge({
      name: 'report_block_keys_kept',
      help: 'Keys (publishers, offers, states) over all kept blocks, ~76 bytes each',
      registers,
      collect() {
        this.set(keptBlockSizes().keys);
      },
    });
  }
  // One run, a second after the start so that it does not slow the start itself.
  registerJob(app, {
    name: 'report-warm-up',
    scope: 'instance',
    firstRunMs: 1000,
    run: async ({ db, log, stopping }) => {
      const started = performance.now();
      const read = await warmReportBlocks(db, stopping);
      if (stopping()) return;
      done = 1;
      log.info(
        { blocks: read, ms: Math.round(performance.now() - started) },
        'report blocks of the last year read into memory',
      );
    },
  });
}
