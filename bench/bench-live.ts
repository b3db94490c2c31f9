// The live streams' phase of `npm run bench` (issue 32): N streams of GET /api/v1/live held by
// the one portal the bench started, then the ingestion row's load (POST /api/v1/ingest/calls)
// while they are open, and the time from each postback's answer to its lead on the streams
// that can see it. `--only live`, `--live-streams N`.
import http from 'node:http';
import type pg from 'pg';
import { fail } from './bench-children.ts';
import type { Endpoint } from './bench-endpoints.ts';
import type { LiveFigures, Row } from './bench-report.ts';
import { createLoad, once, percentile } from './load.ts';

/** A call not on a stream this long after its answer counts as missed. */
const MISSED_AFTER_MS = 10_000;
/** Streams opened at once (each starts with a snapshot: the last 100 calls and the counters). */
const OPENING_AT_ONCE = 25;

type Stream = {
  /** Whether it sees the posted calls (the admin's, the posting publisher's). */
  seeing: boolean;
  /** Each lead id's first arrival (performance.now()), on seeing streams only. */
  arrivals: Map<string, number>;
  ended: boolean;
  close: () => void;
};

type Opened = { ok: true; stream: Stream } | { ok: false; status: number; error: string };

/**
 * One stream: resolves when its first message (`snapshot`) arrived, or with the refusal. The
 * ids of `leads` and `snapshot` messages are read by a pattern rather than JSON.parse: the
 * bench process parses every call of twenty admin streams, beside the load it generates.
 */
function openStream(portalUrl: string, token: string, seeing: boolean): Promise<Opened> {
  const base = new URL(portalUrl);
  return new Promise((resolve) => {
    const arrivals = new Map<string, number>();
    let started = false;
    const req = http.request({
      agent: false,
      host: base.hostname,
      port: base.port,
      method: 'GET',
      path: '/api/v1/live',
      headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
    });
    const stream: Stream = {
      seeing,
      arrivals,
      ended: false,
      close: () => req.destroy(),
    };
    const timer = setTimeout(() => {
      req.destroy();
      if (!started) resolve({ ok: false, status: 0, error: 'no snapshot within 30 s' });
    }, 30_000);
    req.on('error', (err) => {
      clearTimeout(timer);
      stream.ended = true;
      if (!started) resolve({ ok: false, status: 0, error: err.message });
    });
    req.on('response', (res) => {
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (s: string) => {
          body += s;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ ok: false, status: res.statusCode ?? 0, error: body.slice(0, 200) });
        });
        return;
      }
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = performance.now();
        // Whole messages end with a blank line; the last piece waits for the next chunk.
        const blocks = (buffer + chunk).split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const event = /^event: (\w+)$/m.exec(block)?.[1];
          if (event === 'end') stream.ended = true;
          if (event === 'snapshot' && !started) {
            started = true;
            clearTimeout(timer);
            resolve({ ok: true, stream });
          }
          if (seeing && (event === 'leads' || event === 'snapshot')) {
            for (const m of block.matchAll(/"id":"([^"]+)"/g)) {
              if (!arrivals.has(m[1]!)) arrivals.set(m[1]!, at);
            }
          }
        }
      });
      res.on('close', () => {
        stream.ended = true;
      });
    });
    req.end();
  });
}

/** The portal's resident memory in MB, from /metrics (prom-client's default metrics). */
async function rssOf(portalUrl: string, metricsToken: string): Promise<number | undefined> {
  const r = await fetch(`${portalUrl}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  }).catch(() => null);
  if (!r?.ok) return undefined;
  const m = /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(await r.text());
  return m ? Number(m[1]) / 1024 / 1024 : undefined;
}

/**
 * Who holds the streams: the admins and the publisher whose calls the ingestion row posts (they
 * see the calls), each at LIVE_MAX_STREAMS, then other approved publishers at the same, until
 * `streams` are spoken for.
 */
async function holders(
  db: pg.Client,
  opts: { streams: number; perUser: number; publisherEmail: string },
): Promise<{ email: string; seeing: boolean; count: number }[]> {
  const users = await db.query<{ email: string; seeing: boolean }>(
    `select email, (role = 'admin' or email = $1) as seeing from users
     where (role = 'admin' and status = 'active') or (role = 'publisher' and status = 'approved')
     order by (role = 'admin' or email = $1) desc, role, email
     limit $2`,
    [opts.publisherEmail, Math.ceil(opts.streams / opts.perUser)],
  );
  let left = opts.streams;
  const out = users.rows.map((u) => {
    const count = Math.min(opts.perUser, left);
    left -= count;
    return { ...u, count };
  });
  if (left > 0) {
    fail(
      `--live-streams ${opts.streams}: ${users.rows.length} admins and approved publishers hold at most ${opts.streams - left} streams at ${opts.perUser} each (LIVE_MAX_STREAMS); fill more publishers.`,
    );
  }
  return out;
}

export async function benchLive(opts: {
  db: pg.Client;
  portalUrl: string;
  metricsToken: string;
  /** The ingestion row ('POST /api/v1/ingest/calls'), posting the publisher's calls. */
  ingest: Endpoint;
  publisherEmail: string;
  /** Tokens already signed in (the admin's, the publisher's), by e-mail. */
  tokens: Map<string, string>;
  signIn: (email: string) => Promise<{ access_token: string }>;
  streams: number;
  c: number;
  duration: number;
  say: (s: string) => void;
}): Promise<LiveFigures> {
  const { portalUrl, say } = opts;
  const perUser = Number(process.env.LIVE_MAX_STREAMS || 5);
  const who = await holders(opts.db, {
    streams: opts.streams,
    perUser,
    publisherEmail: opts.publisherEmail,
  });
  for (const u of who) {
    if (!opts.tokens.has(u.email))
      opts.tokens.set(u.email, (await opts.signIn(u.email)).access_token);
  }
  const rssBefore = await rssOf(portalUrl, opts.metricsToken);

  // 1. The streams, OPENING_AT_ONCE at a time.
  const plan = who.flatMap((u) =>
    Array.from({ length: u.count }, () => ({ token: opts.tokens.get(u.email)!, seeing: u.seeing })),
  );
  const streams: Stream[] = [];
  let refused = 0;
  let failed = 0;
  let firstError: string | undefined;
  const openStarted = performance.now();
  for (let i = 0; i < plan.length; i += OPENING_AT_ONCE) {
    const batch = await Promise.all(
      plan.slice(i, i + OPENING_AT_ONCE).map((p) => openStream(portalUrl, p.token, p.seeing)),
    );
    for (const b of batch) {
      if (b.ok) streams.push(b.stream);
      else {
        if (b.status === 429) refused++;
        else failed++;
        firstError ??= `${b.status || 'no answer'} ${b.error}`;
      }
    }
  }
  const openSeconds = (performance.now() - openStarted) / 1000;
  const seeing = streams.filter((s) => s.seeing);
  say(
    `  ${streams.length} of ${opts.streams} streams open in ${openSeconds.toFixed(1)} s (${who.length} users, ${seeing.length} seeing the calls; ${refused} refused 429, ${failed} failed)`,
  );
  const rssOpen = await rssOf(portalUrl, opts.metricsToken);

  // 2. The ingestion row's load while they are open: each answer's time and lead id.
  const answered = new Map<string, number>();
  const { source } = await opts.ingest.request(opts.c);
  // One call first, as every row has its warm-up request (its lead is not counted).
  await once(portalUrl, source(0)).catch(() => {});
  const load = createLoad({
    baseUrl: portalUrl,
    connections: opts.c,
    request: source,
    onAnswer: (_w, a) => {
      if (a.status !== 200) return;
      const at = performance.now();
      const id = (JSON.parse(a.body) as { id?: string }).id;
      if (id) answered.set(id, at);
    },
  });
  await load.runFor(opts.duration);
  const ingest = load.result();
  const rssAfter = await rssOf(portalUrl, opts.metricsToken);

  // 3. Until every seeing stream has every call, or MISSED_AFTER_MS after the last answer.
  const ids = [...answered.keys()];
  const lastAnswer = Math.max(0, ...answered.values());
  const complete = () => seeing.every((s) => s.ended || ids.every((id) => s.arrivals.has(id)));
  while (!complete() && performance.now() < lastAnswer + MISSED_AFTER_MS) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const endedEarly = streams.filter((s) => s.ended).length;
  for (const s of streams) s.close();

  // An event may reach a stream before its postback's answer reaches the bench: that is 0 ms.
  const latencies: number[] = [];
  let seen = 0;
  for (const [id, at] of answered) {
    let everywhere = seeing.length > 0;
    for (const s of seeing) {
      const got = s.arrivals.get(id);
      if (got === undefined || got - at > MISSED_AFTER_MS) everywhere = false;
      else latencies.push(Math.max(0, got - at));
    }
    if (everywhere) seen++;
  }
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  const figures: LiveFigures = {
    streams: opts.streams,
    opened: streams.length,
    refused,
    failed,
    ...(firstError ? { firstError } : {}),
    openSeconds,
    users: who.length,
    seeing: seeing.length,
    endedEarly,
    c: opts.c,
    seconds: ingest.seconds,
    calls: answered.size,
    ingestRps: ingest.rps,
    ingestP50: ingest.p50,
    ingestP99: ingest.p99,
    ingestErrors: ingest.errors,
    ingestServerErrors: ingest.serverErrors,
    seen,
    missed: answered.size - seen,
    p50Ms: round(percentile(latencies, 50)),
    p95Ms: round(percentile(latencies, 95)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? Number.NaN),
    ...(rssBefore !== undefined && rssOpen !== undefined && rssAfter !== undefined
      ? { rssMb: { before: rssBefore, open: rssOpen, after: rssAfter } }
      : {}),
  };
  say(
    `  ingestion c=${opts.c} for ${ingest.seconds.toFixed(1)} s: ${Math.round(ingest.rps)} req/s, p99 ${Math.round(ingest.p99)} ms, ${ingest.errors} errors; ${seen} of ${answered.size} calls on every seeing stream (${figures.missed} missed after ${MISSED_AFTER_MS / 1000} s), answer-to-event p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms, p99 ${figures.p99Ms} ms${figures.rssMb ? `; portal RSS ${Math.round(figures.rssMb.before)} → ${Math.round(figures.rssMb.open)} MB with the streams → ${Math.round(figures.rssMb.after)} MB after the load` : ''}${endedEarly ? `; ${endedEarly} streams ended early` : ''}`,
  );
  // Closed streams leave the hub on their 'close': a moment before the next phase.
  await new Promise((r) => setTimeout(r, 500));
  return figures;
}

/**
 * The figures as a row of the results table: req/s and errors are the ingestion's under the
 * streams; p50/p95/p99 the answer-to-event latency. A stream not opened, a call missed or a
 * stream ended early counts as an error (and fails a smoke run); failures without an answer, a
 * 5xx, a missed call or an early end as a server error (which fails any run).
 */
export function liveRow(f: LiveFigures): Row {
  const notOpened = f.streams - f.opened;
  return {
    endpoint: `live: ${f.streams.toLocaleString('en-US')} streams, POST /api/v1/ingest/calls → event`,
    c: f.c,
    requests: f.calls,
    seconds: f.seconds,
    rps: f.ingestRps,
    p50: f.p50Ms,
    p95: f.p95Ms,
    p99: f.p99Ms,
    errors: f.ingestErrors + notOpened + f.missed + f.endedEarly,
    serverErrors: f.ingestServerErrors + f.failed + f.missed + f.endedEarly,
    statuses: {
      '200': f.calls,
      ...(f.refused ? { 'stream 429': f.refused } : {}),
      ...(f.failed ? { 'stream failed': f.failed } : {}),
      ...(f.missed ? { missed: f.missed } : {}),
    },
    ...(f.firstError ? { firstError: f.firstError } : {}),
  };
}
