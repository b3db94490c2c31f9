// Step 3 of `npm run bench`: one row at one concurrency, with its references measured in the
// same window. The row's duration is cut into slices of about a second; after each slice of the
// row, GET /healthz runs for a quarter of a slice and (list and report rows) the bare route on the
// row's captured SQL for half a slice, each at the same c on its own keep-alive connections. So
// all three meet the same machine (the other processes, the load generator itself, the
// database's caches) within a second of each other, and none competes with another for the CPU
// while it is measured.
import type { Endpoint } from './bench-endpoints.ts';
import type { RefFigures, Row } from './bench-report.ts';
import { createLoad, type LoadResult, once } from './load.ts';

const refFigures = (r: LoadResult): RefFigures => ({
  requests: r.requests,
  rps: r.rps,
  p50: r.p50,
  p95: r.p95,
  errors: r.errors,
  ...(r.firstError ? { firstError: r.firstError } : {}),
});

export async function measureRow(opts: {
  portalUrl: string;
  endpoint: Endpoint;
  c: number;
  duration: number;
  /** The bare server and the row's key on it, when its SQL was captured. */
  bare?: { url: string; key: string };
  /** pg_stat_statements' total execution time so far (ms), when PostgreSQL preloads it. */
  dbTotal?: () => Promise<number>;
}): Promise<Row> {
  const { portalUrl, endpoint: e, c, duration, bare } = opts;
  const { source, onAnswer } = await e.request(c);
  const beside = e.during ? await e.during.source(e.during.connections) : undefined;
  await once(portalUrl, source(0))
    .then((a) => onAnswer?.(0, a))
    .catch(() => {});
  const row = createLoad({ baseUrl: portalUrl, connections: c, request: source, onAnswer });
  const besideLoad =
    e.during && beside
      ? createLoad({ baseUrl: portalUrl, connections: e.during.connections, request: beside })
      : undefined;
  const isHealthz = e.name === 'GET /healthz';
  const healthz = isHealthz
    ? undefined
    : createLoad({
        baseUrl: portalUrl,
        connections: c,
        request: () => ({ method: 'GET', path: '/healthz' }),
      });
  const bareLoad = bare
    ? createLoad({
        baseUrl: bare.url,
        connections: c,
        request: () => ({ method: 'GET', path: `/row/${bare.key}` }),
      })
    : undefined;
  if (bare) await once(bare.url, { method: 'GET', path: `/row/${bare.key}` }).catch(() => {});

  const slices = Math.max(1, Math.round(duration));
  const slice = duration / slices;
  let dbMs = 0;
  for (let i = 0; i < slices; i++) {
    const before = opts.dbTotal ? await opts.dbTotal() : 0;
    await Promise.all([row.runFor(slice), besideLoad?.runFor(slice)]);
    if (opts.dbTotal) dbMs += (await opts.dbTotal()) - before;
    await healthz?.runFor(slice / 4);
    await bareLoad?.runFor(slice / 2);
  }
  besideLoad?.result();
  const r = row.result();
  return {
    endpoint: e.name,
    c,
    ...r,
    ...(healthz ? { healthz: refFigures(healthz.result()) } : {}),
    ...(bareLoad ? { bare: refFigures(bareLoad.result()) } : {}),
    ...(opts.dbTotal && r.requests > 0 ? { dbLoadMs: dbMs / r.requests } : {}),
  };
}
