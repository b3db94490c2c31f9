// Webhooks and postbacks under load (issue 30): a local receiver, one webhook endpoint on the
// lead events and the big publisher's postback templates, set up before the ingest rows (so
// ingestion is measured with both configured); then 10,000 lead events straight into the
// database and the time until the receiver has every delivery.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import type { RefFigures, Row } from './bench-report.ts';
import { createLoad } from './load.ts';

export type Outbound = {
  url: string;
  /** When the receiver was set up: the deliveries since are the bench's. */
  since: Date;
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
  const since = new Date();
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
    since,
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

export type DeliveryRun = DeliveryFigures & {
  expected: number;
  /** How the events came: all at once, or at a steady rate. */
  arrival: 'burst' | 'steady';
  /** Events per second written, for the steady run. */
  ratePerSecond?: number;
  /** GET /healthz right after, at c=1 (the row's reference, as the other rows have). */
  healthz?: RefFigures;
};

/** Waits until nothing due is left in the queue (or a minute passed). */
/** Events not yet fanned out, and deliveries due now. */
async function backlog(db: pg.Client): Promise<{ events: number; due: number }> {
  const r = await db.query<{ n: number }>(
    `select count(*)::int as n from outbound_events
     union all select count(*)::int from outbound_deliveries
     where state = 'pending' and next_at <= now()`,
  );
  return { events: r.rows[0]?.n ?? 0, due: r.rows[1]?.n ?? 0 };
}

/** Waits (at most `limitMs`) until nothing is left to fan out or due; answers whether it was. */
async function drained(db: pg.Client, limitMs = 60_000): Promise<boolean> {
  const until = Date.now() + limitMs;
  for (;;) {
    const b = await backlog(db);
    if (b.events === 0 && b.due === 0) return true;
    if (Date.now() > until) return false;
    await new Promise((res) => setTimeout(res, 250));
  }
}

/**
 * After an ingest row: what its calls left to deliver (the engine sends at a trickle while
 * postbacks queue up, server/jobs/pressure.ts) and how long the portal took to deliver it,
 * with nothing else running; the next row starts after it (at most 5 minutes).
 */
export async function deliveryCatchUp(db: pg.Client): Promise<string> {
  const left = await backlog(db);
  const t = performance.now();
  const done = await drained(db, 300_000);
  const s = ((performance.now() - t) / 1000).toFixed(1);
  const what = `${left.events.toLocaleString('en-US')} events to fan out and ${left.due.toLocaleString('en-US')} deliveries due at the row's end`;
  return done ? `${what}, all sent ${s} s later` : `${what}, still not sent after ${s} s`;
}

/**
 * What the rows before this one (the ingest rows, with the webhook and the postbacks on) sent:
 * deliveries made since the receiver was set up, by kind and state.
 */
export async function earlierDeliveries(db: pg.Client, since: Date): Promise<string> {
  await drained(db);
  const r = await db.query<{ kind: string; state: string; n: number }>(
    `select kind, state, count(*)::int as n from outbound_deliveries
     where created_at >= $1 group by 1, 2 order by 1, 2`,
    [since],
  );
  return r.rows.length === 0
    ? 'none'
    : r.rows.map((x) => `${x.n.toLocaleString('en-US')} ${x.kind}s ${x.state}`).join(', ');
}

/**
 * `events` new leads (a lead.created each) and the time until the receiver had every one.
 * `burst`: committed 500 a statement as fast as the database takes them; deliveries per
 * second is the engine's drain rate, and the latency is mostly the queue ahead of a lead.
 * `steady`: `ratePerSecond` events a second (a statement every 100 ms); the latency is what a
 * lead waits when the engine keeps up. Latency: from the lead's commit (its statement answered)
 * to its arrival, on the bench's clock.
 */
export async function benchDeliveries(opts: {
  db: pg.Client;
  outbound: Outbound;
  publisherId: string;
  events: number;
  arrival: 'burst' | 'steady';
  ratePerSecond?: number;
  portalUrl: string;
  say: (s: string) => void;
}): Promise<DeliveryRun> {
  const { db, outbound } = opts;
  // The bench database outlives a run: earlier runs' receivers are gone, and their endpoints'
  // deliveries (refused, retried) would stand in the queue before this row's.
  await db.query(
    `delete from webhook_endpoints where url like 'http://127.0.0.1:%/hook' and url <> $1`,
    [`${outbound.url}/hook`],
  );
  // Measured from an empty queue (retries waiting for a later time do not count).
  await drained(db);
  const offer = await db.query<{ id: string }>('select id from offers limit 1');
  const ids: string[] = [];
  const committed = new Map<string, number>();
  const perStatement =
    opts.arrival === 'burst' ? 500 : Math.max(1, (opts.ratePerSecond ?? 1000) / 10);
  const began = Date.now();
  for (let done = 0, n = 0; done < opts.events; done += perStatement, n++) {
    if (opts.arrival === 'steady') {
      const at = began + n * 100;
      if (at > Date.now()) await new Promise((r) => setTimeout(r, at - Date.now()));
    }
    const r = await db.query<{ id: string }>(
      `insert into leads (publisher_id, offer_id, payout, status)
       select $1, $2, 0, 'pending' from generate_series(1, $3) returning id`,
      [opts.publisherId, offer.rows[0]!.id, Math.min(perStatement, opts.events - done)],
    );
    const at = Date.now();
    for (const x of r.rows) {
      ids.push(x.id);
      committed.set(x.id, at);
    }
  }
  const deadline = Date.now() + 120_000;
  while (ids.some((id) => !outbound.arrivals.has(id)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const arrived = ids.filter((id) => outbound.arrivals.has(id));
  const last = Math.max(...arrived.map((id) => outbound.arrivals.get(id)!.at));
  const seconds = (last - began) / 1000;
  const latencies = arrived
    .map((id) => outbound.arrivals.get(id)!.at - committed.get(id)!)
    .sort((a, b) => a - b);
  const healthz = await healthzNow(opts.portalUrl);
  // Clean up: these leads are the row's own.
  await db.query('delete from leads where id = any($1::uuid[])', [ids]);
  const figures: DeliveryRun = {
    expected: opts.events,
    arrival: opts.arrival,
    ...(opts.arrival === 'steady' ? { ratePerSecond: opts.ratePerSecond ?? 1000 } : {}),
    events: arrived.length,
    seconds,
    perSecond: arrived.length / seconds,
    p50Ms: pct(latencies, 50),
    p95Ms: pct(latencies, 95),
    p99Ms: pct(latencies, 99),
    healthz,
  };
  opts.say(
    `  ${opts.arrival === 'burst' ? 'at once' : `${figures.ratePerSecond} a second`}: ${arrived.length.toLocaleString('en-US')} of ${opts.events.toLocaleString('en-US')} lead.created webhooks in ${seconds.toFixed(1)} s: ${Math.round(figures.perSecond)} deliveries/s, commit-to-delivery p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms, p99 ${figures.p99Ms} ms (GET /healthz after: ${Math.round(healthz.rps)} req/s at c=1)`,
  );
  return figures;
}

/** GET /healthz for a second at c=1: the machine's speed just after the row. */
async function healthzNow(portalUrl: string): Promise<RefFigures> {
  const load = createLoad({
    baseUrl: portalUrl,
    connections: 1,
    request: () => ({ method: 'GET', path: '/healthz' }),
  });
  await load.runFor(1);
  const r = load.result();
  return { requests: r.requests, rps: r.rps, p50: r.p50, p95: r.p95, errors: r.errors };
}

/**
 * The figures as a row of the results table: req/s is deliveries per second, p50/p95 the time
 * from the lead's commit to its delivery; an undelivered event counts as an error.
 */
export function deliveriesRow(f: DeliveryRun): Row {
  const missing = f.expected - f.events;
  const how = f.arrival === 'burst' ? 'at once' : `${f.ratePerSecond}/s`;
  return {
    endpoint: `deliveries: ${f.expected.toLocaleString('en-US')} lead events ${how} → webhooks`,
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
    ...(f.healthz ? { healthz: f.healthz } : {}),
  };
}
