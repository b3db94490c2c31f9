import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { onEventEmitted } from '../../events/emit.ts';
import { registerJob } from '../../jobs/runtime.ts';
import { type EngineContext, runOutbound, sweepOldDeliveries } from './engine.ts';
import { outboundPolicyOf } from './safe-http.ts';

/**
 * The delivery worker: on each instance, every 250 ms after the previous run, at once after a
 * run that sent something, and at once when this process emits an event or replays a delivery; the log's 30-day retention once an hour
 * across the cluster.
 */
export function registerOutbound(app: FastifyInstance): void {
  const instance = randomUUID();
  const ctx = (): EngineContext => ({
    db: app.db,
    instance,
    ...outboundPolicyOf(app.config),
    publicUrl: app.config.publicUrl,
  });
  const worker = registerJob(app, {
    name: 'outbound-deliveries',
    scope: 'instance',
    everyMs: 250,
    firstRunMs: 1000,
    run: async ({ stopping }) => {
      const sent = await runOutbound(ctx(), stopping);
      // Something was sent: there may be more (a run ends after 5 s), so go on at once.
      if (sent > 0) worker.wake();
      return sent;
    },
  });
  const off = onEventEmitted(() => worker.wake());
  app.addHook('onClose', async () => {
    off();
  });
  registerJob(app, {
    name: 'outbound-retention',
    scope: 'cluster',
    everyMs: 3_600_000,
    run: ({ db }) => sweepOldDeliveries(db),
  });
}
