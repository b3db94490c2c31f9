import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { buildAdmin, buildOffer, buildPublisher, tokenFor } from '../../test/factories.ts';
import { freePort } from '../../test/free-port.ts';
import { openStream } from '../../test/live-stream.ts';
import { listenSecondInstance, type SecondInstance } from '../../test/second-instance.ts';
import { startRedisBus } from './live.bus.ts';

/**
 * Live events through Redis pub/sub (REDIS_URL): two app instances on one database, neither
 * LISTENing, the poll slowed to a minute; a write answered by one reaches the other's streams
 * only by the Redis message.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ENV = { LIVE_POLL_MS: '60000', REDIS_URL, LOG_LEVEL: 'silent' };

let first: TestApp & { base: string };
let second: SecondInstance;

beforeAll(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  first = { ...(await buildTestApp({ env: { ...ENV, PUBLIC_URL: base } })), base };
  await first.app.listen({ port, host: '127.0.0.1' });
  second = await listenSecondInstance(first, ENV);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe('live events through Redis pub/sub', () => {
  it('delivers a write answered by one instance to the streams of the other', async () => {
    const admin = await buildAdmin(first.db);
    const publisher = await buildPublisher(first.db);
    const offer = await buildOffer(first.db);
    const [lead] = await first.db
      .insert(leads)
      .values({
        publisherId: publisher.id,
        offerId: offer.id,
        payout: '12.50',
        revenue: '30.00',
        caller: '+15555550123',
        lastEvent: 'completed',
        eventRank: 4,
        durationSeconds: 95,
        lastEventAt: new Date(),
      })
      .returning();
    const token = await tokenFor(first.db, first.config.jwtSecret, admin);
    const stream = await openStream(second.base, token);
    await stream.waitFor(() => stream.leads().some((l) => l.id === lead!.id));
    const before = stream.messages.length;

    const res = await fetch(`${first.base}/api/v1/admin/leads/${lead!.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'rejected', reason: 'other', note: 'Redis fan-out test' }),
    });
    expect(res.status).toBe(200);
    await stream.waitFor(
      () =>
        stream.messages
          .slice(before)
          .some(
            (m) =>
              m.event === 'leads' &&
              (m.data as { leads: { id: string; status: string }[] }).leads.some(
                (l) => l.id === lead!.id && l.status === 'rejected',
              ),
          ),
      // Well before the minute's poll: only the Redis message can have woken the reader. (The
      // 2 s goal itself is the benchmark's to measure, not a timed test's.)
      15_000,
    );
    stream.close();
  });

  it('does not hold the start when Redis is away, and publishing then is harmless', async () => {
    const warnings: unknown[] = [];
    const started = Date.now();
    const bus = await startRedisBus('redis://127.0.0.1:1', () => {}, {
      warn: (o: unknown) => warnings.push(o),
    } as never);
    // It gives up after a second; far less than the connect retries' minutes, even on a busy machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    bus.publish();
    await new Promise((r) => setTimeout(r, 50));
    await bus.close();
    expect(warnings.length).toBeGreaterThan(0);
  });
});
