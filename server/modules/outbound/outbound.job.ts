import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { onEventEmitted } from '../../events/emit.ts';
import { registerJob } from '../../jobs/runtime.ts';
import { type EngineContext, runOutbound } from './engine.ts';
import { releaseWaiting, sweepOldDeliveries } from './housekeeping.ts';
import { outboundPolicyOf } from './safe-http.ts';

/**
 * The delivery worker: on each instance, every 250 ms after the previous run, at once after a
 * run that sent something, and at once when events are committed (NOTIFY outbound_events, from
 * any instance or writer: drizzle/0036) or this process emits an event or replays a delivery;
 * a run under way looks again at once too. The log's 30-day retention once an hour across the
 * cluster, and every 15 s the release of a lead's postback left waiting by a race (engine.ts,
 * releaseWaiting).
 */
export function registerOutbound(app: FastifyInstance): void {
  const instance = randomUUID();
  /** The runs under way's pokes, for a notification. */
  const running = new Set<() => void>();
  const ctx = (): EngineContext => ({
    db: app.db,
    instance,
    ...outboundPolicyOf(app.config),
    publicUrl: app.config.publicUrl,
    yieldRate: app.config.outboundYieldRate,
    subscribe: (onEvents) => {
      running.add(onEvents);
      return () => running.delete(onEvents);
    },
  });
  const nudge = () => {
    for (const poke of running) poke();
    worker.wake();
  };
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
  const off = onEventEmitted(nudge);
  let unlisten: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    // Without it (the connection refused) the 250 ms poll still finds the events.
    unlisten = await app.database.listen('outbound_events', nudge).catch((err: unknown) => {
      app.log.warn({ err }, 'outbound: LISTEN failed; deliveries are found by polling');
      return undefined;
    });
  });
  app.addHook('onClose', async () => {
    off();
    await unlisten?.();
  });
  registerJob(app, {
    name: 'outbound-retention',
    scope: 'cluster',
    everyMs: 3_600_000,
    run: ({ db }) => sweepOldDeliveries(db),
  });
  registerJob(app, {
    name: 'outbound-waiting',
    scope: 'cluster',
    everyMs: 15_000,
    run: async ({ db }) => {
      const released = await releaseWaiting(db);
      if (released > 0) nudge();
      return released;
    },
  });
}
