// Webhooks and postbacks under load (issue 30): a local receiver, one webhook endpoint on the
// lead events and the big publisher's postback templates, set up before the ingest rows (so
// ingestion is measured with both configured); then 10,000 lead events straight into the
// database and the time until the receiver has every delivery.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import type { Row } from './bench-report.ts';

export type Outbound = {
  url: string;
  /** Arrival time (ms) and the event's timestamp (ms) of each lead.created webhook. */
  arrivals: Map<string, { at: number; event: number }>;
  close(): Promise<void>;
};

export type DeliveryFigures = {
  events: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
};

/** The receiver, the endpoint and the templates. */
export async function setUpOutbound(opts: {
  portalUrl: string;
  adminToken: string;
  publisherToken: string;
}): Promise<Outbound> {
  const arrivals: Outbound['arrivals'] = new Map();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      if (req.url?.startsWith('/hook')) {
        try {
          const b = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            type: string;
            timestamp: string;
            data: { lead_id?: string };
          };
          if (b.type === 'lead.created' && b.data.lead_id) {
            arrivals.set(b.data.lead_id, { at, event: Date.parse(b.timestamp) });
          }
        } catch {
          /* not ours */
        }
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (path: string, method: string, token: string, body: unknown) => {
    const res = await fetch(`${opts.portalUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };
  await call('/api/v1/admin/webhooks', 'POST', opts.adminToken, {
    url: `${url}/hook`,
    events: ['lead.created', 'lead.status_changed'],
  });
  await call('/api/v1/publisher/postbacks', 'PUT', opts.publisherToken, {
    templates: [
      { event: 'approved', method: 'GET', url: `${url}/pb?e=approved&id={call_id}&p={payout}` },
      { event: 'rejected', method: 'GET', url: `${url}/pb?e=rejected&id={call_id}` },
      { event: 'status_changed', method: 'GET', url: `${url}/pb?e=status&s={status}` },
    ],
  });
  return {
    url,
    arrivals,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * `events` new leads (a lead.created each), committed in batches of 500, and the time until the
 * receiver had every one: deliveries per second, and commit-to-delivery p50/p95.
 */
export async function benchDeliveries(opts: {
  db: pg.Client;
  outbound: Outbound;
  publisherId: string;
  events: number;
  say: (s: string) => void;
}): Promise<DeliveryFigures & { expected: number }> {
  const { db, outbound } = opts;
  // The bench database outlives a run: earlier runs' receivers are gone, and their endpoints'
  // deliveries (refused, retried) would stand in the queue before this row's.
  // (The engine may be recording their answers: a deadlock is tried again.)
  for (let tries = 0; ; tries++) {
    const gone = await db
      .query(
        `delete from webhook_endpoints where url like 'http://127.0.0.1:%/hook' and url <> $1`,
        [`${outbound.url}/hook`],
      )
      .then(() => true)
      .catch((err: { code?: string }) =>
        err.code === '40P01' && tries < 10 ? false : Promise.reject(err),
      );
    if (gone) break;
  }
  // The ingest rows' deliveries (postbacks and webhooks on) go first: measured from an empty
  // queue (retries waiting for a later time do not count).
  const drained = Date.now() + 60_000;
  for (;;) {
    const r = await db.query<{ n: number }>(
      `select count(*)::int as n from outbound_deliveries
       where state = 'pending' and next_at <= now()
       union all select count(*)::int from outbound_events`,
    );
    if (r.rows.every((x) => x.n === 0) || Date.now() > drained) break;
    await new Promise((res) => setTimeout(res, 250));
  }
  const offer = await db.query<{ id: string }>('select id from offers limit 1');
  const ids: string[] = [];
  const began = Date.now();
  for (let done = 0; done < opts.events; done += 500) {
    const n = Math.min(500, opts.events - done);
    const r = await db.query<{ id: string }>(
      `insert into leads (publisher_id, offer_id, payout, status)
       select $1, $2, 0, 'pending' from generate_series(1, $3) returning id`,
      [opts.publisherId, offer.rows[0]!.id, n],
    );
    ids.push(...r.rows.map((x) => x.id));
  }
  const deadline = Date.now() + 120_000;
  while (ids.some((id) => !outbound.arrivals.has(id)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const arrived = ids.map((id) => outbound.arrivals.get(id)).filter((a) => a !== undefined);
  const last = Math.max(...arrived.map((a) => a.at));
  const seconds = (last - began) / 1000;
  const latencies = arrived.map((a) => a.at - a.event).sort((a, b) => a - b);
  // Clean up: these leads are the row's own.
  await db.query('delete from leads where id = any($1::uuid[])', [ids]);
  const figures = {
    expected: opts.events,
    events: arrived.length,
    seconds,
    perSecond: arrived.length / seconds,
    p50Ms: pct(latencies, 50),
    p95Ms: pct(latencies, 95),
    p99Ms: pct(latencies, 99),
  };
  opts.say(
    `  ${arrived.length.toLocaleString('en-US')} of ${opts.events.toLocaleString('en-US')} lead.created webhooks in ${seconds.toFixed(1)} s: ${Math.round(figures.perSecond)} deliveries/s, commit-to-delivery p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms`,
  );
  return figures;
}

/**
 * The figures as a row of the results table: req/s is deliveries per second, p50/p95 the time
 * from the lead's commit to its delivery; an undelivered event counts as an error.
 */
export function deliveriesRow(f: DeliveryFigures & { expected?: number }): Row {
  const missing = (f.expected ?? f.events) - f.events;
  return {
    endpoint: `deliveries: ${f.events.toLocaleString('en-US')} lead events → webhooks`,
    c: 1,
    requests: f.events,
    seconds: f.seconds,
    rps: f.perSecond,
    p50: f.p50Ms,
    p95: f.p95Ms,
    p99: f.p99Ms,
    errors: missing,
    serverErrors: missing,
    statuses: { '200': f.events },
  };
}
