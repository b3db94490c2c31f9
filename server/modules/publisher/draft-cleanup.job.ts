import type { FastifyInstance } from 'fastify';
import { deleteStaleDrafts } from './applications.service.ts';

/** How often abandoned drafts are swept; a draft lives at most 24 h plus this. */
export const DRAFT_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const FIRST_SWEEP_DELAY_MS = 30 * 1000;

/**
 * Sweeps stale drafts on a timer from onReady to onClose. Every instance may run it: the
 * delete is idempotent, so several servers behind a load balancer need no coordination.
 */
export function registerDraftCleanup(app: FastifyInstance): void {
  let timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = deleteStaleDrafts({ db: app.db })
      .then((n) => {
        if (n > 0) app.log.info({ deleted: n }, 'removed stale application drafts');
      })
      .catch((err: unknown) => app.log.warn({ err }, 'stale draft sweep failed'));
  };
  app.addHook('onReady', async () => {
    timers = [setTimeout(sweep, FIRST_SWEEP_DELAY_MS), setInterval(sweep, DRAFT_SWEEP_INTERVAL_MS)];
    for (const t of timers) t.unref();
  });
  app.addHook('onClose', async () => {
    for (const t of timers) clearTimeout(t);
    timers = [];
    await running;
  });
}
