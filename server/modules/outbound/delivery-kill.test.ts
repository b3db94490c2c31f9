import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type Portal, setUpPayee, startPortal, tempDataDir } from '../../test/fault-support.ts';
import { type Sink, startSink } from '../../test/http-sink.ts';
import { until } from '../../test/waiting.ts';

/**
 * SIGKILL during a delivery (issue 30): the real portal sends a webhook to a receiver that holds
 * the request open; the portal is killed mid-send and started again on the same data; once the
 * dead instance's lease has run out the delivery goes again, with the same webhook-id, and the
 * log says delivered. Nothing lost; at most the one in flight sent twice (at-least-once).
 */
describe('a delivery in flight when the portal is SIGKILLed', () => {
  let portal: Portal | undefined;
  let sink: Sink | undefined;
  const dataDir = tempDataDir();
  afterAll(async () => {
    await portal?.kill('SIGKILL');
    await sink?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is delivered after the restart', async () => {
    let hold = true;
    sink = await startSink(
      () =>
        new Promise((resolve) => {
          if (!hold) return resolve({ status: 200, body: 'ok' });
          // Never answered: the portal dies waiting.
        }),
    );
    const env = { OUTBOUND_ALLOW_PRIVATE: 'true' };
    portal = await startPortal({ dataDir, env });
    const { token } = await setUpPayee(portal.url);
    const created = await fetch(`${portal.url}/api/v1/admin/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: `${sink.url}/in`, events: ['publisher.status_changed'] }),
    });
    expect(created.status).toBe(201);
    await setUpPayee(portal.url); // a sign-up and an approval: one publisher.status_changed
    await until(() => sink!.requests.length === 1, 'the webhook is in flight', 30_000);
    await portal.kill('SIGKILL');
    hold = false;

    portal = await startPortal({ dataDir, env });
    await until(() => sink!.requests.length >= 2, 'the webhook is sent again', 60_000);
    const [first, second] = sink.requests;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    // The dead instance's lease (20 s) ran out before anyone took it again.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(15_000);

    const signIn = await fetch(`${portal.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@faults.test', password: 'faults-admin-password' }),
    });
    const admin = ((await signIn.json()) as { access_token: string }).access_token;
    const auth = { authorization: `Bearer ${admin}` };
    const list = (await (
      await fetch(`${portal.url}/api/v1/admin/webhooks`, { headers: auth })
    ).json()) as {
      items: { id: string }[];
    };
    let state = '';
    for (let i = 0; i < 50 && state !== 'delivered'; i++) {
      const page = (await (
        await fetch(`${portal.url}/api/v1/admin/webhooks/${list.items[0]!.id}/deliveries`, {
          headers: auth,
        })
      ).json()) as { items: { state: string; attempts: number }[] };
      state = page.items[0]?.state ?? '';
      if (state !== 'delivered') await new Promise((r) => setTimeout(r, 200));
    }
    expect(state).toBe('delivered');
    expect(sink.requests).toHaveLength(2);
  }, 240_000);
});
