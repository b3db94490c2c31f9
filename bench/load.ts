// A keep-alive HTTP load loop: `c` connections, each sending its next request as soon as the
// previous answer has been read, for a fixed duration. Latency of every request is kept, so the
// percentiles are exact (not bucketed).
import http from 'node:http';

export type RequestSpec = {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

/** Builds each connection's next request; it may keep state per connection (a refresh chain). */
export type RequestSource = (worker: number) => RequestSpec | Promise<RequestSpec>;

export type LoadResult = {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers that were not 2xx, plus requests that failed without an answer. */
  errors: number;
  /** 5xx answers and failed connections: what the smoke run refuses. */
  serverErrors: number;
  statuses: Record<string, number>;
  /** The first non-2xx body seen, shortened, to say what went wrong. */
  firstError?: string;
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export type Answer = { status: number; body: string };

function send(agent: http.Agent, base: URL, spec: RequestSpec): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...spec.headers };
    if (spec.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = Buffer.byteLength(spec.body);
    }
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: spec.method,
        path: spec.path,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let keep = 0;
        const status = res.statusCode ?? 0;
        res.on('data', (chunk: Buffer) => {
          // Only error bodies (and the refresh answers) are read; a CSV is counted, not kept.
          if (status >= 300 || keep < 64 * 1024) {
            chunks.push(chunk);
            keep += chunk.length;
          }
        });
        res.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (spec.body !== undefined) req.write(spec.body);
    req.end();
  });
}

/** One request, outside any measurement (sign-in before a run, a warm-up). */
export async function once(baseUrl: string, spec: RequestSpec): Promise<Answer> {
  const agent = new http.Agent({ keepAlive: false });
  try {
    return await send(agent, new URL(baseUrl), spec);
  } finally {
    agent.destroy();
  }
}

export type LoadOptions = {
  baseUrl: string;
  connections: number;
  request: RequestSource;
  onAnswer?: (worker: number, answer: Answer) => void;
};

/**
 * A load that runs in slices: each `runFor(seconds)` runs the `connections` loops for that long
 * on the same keep-alive connections, and `result()` sums every slice (the seconds are the
 * slices' own, not the time between them). So two loads can take turns in one window (a row
 * and its /healthz reference) and each still reads as one run.
 */
export function createLoad(opts: LoadOptions) {
  const base = new URL(opts.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let serverErrors = 0;
  let firstError: string | undefined;
  let seconds = 0;

  const worker = async (w: number, stopAt: number) => {
    while (performance.now() < stopAt) {
      const spec = await opts.request(w);
      const t = performance.now();
      try {
        const answer = await send(agent, base, spec);
        latencies.push(performance.now() - t);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if (answer.status < 200 || answer.status >= 300) {
          errors++;
          if (answer.status >= 500) serverErrors++;
          firstError ??= `${answer.status} ${answer.body.slice(0, 300)}`;
        }
        opts.onAnswer?.(w, answer);
      } catch (err) {
        latencies.push(performance.now() - t);
        statuses.failed = (statuses.failed ?? 0) + 1;
        errors++;
        serverErrors++;
        firstError ??= `no answer: ${(err as Error).message}`;
      }
    }
  };
  return {
    async runFor(slice: number): Promise<void> {
      const started = performance.now();
      const stopAt = started + slice * 1000;
      await Promise.all(Array.from({ length: opts.connections }, (_, w) => worker(w, stopAt)));
      seconds += (performance.now() - started) / 1000;
    },
    /** The figures of every slice so far; closes the connections. */
    result(): LoadResult {
      agent.destroy();
      latencies.sort((a, b) => a - b);
      return {
        requests: latencies.length,
        seconds,
        rps: seconds > 0 ? latencies.length / seconds : Number.NaN,
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        errors,
        serverErrors,
        statuses,
        firstError,
      };
    },
  };
}

/**
 * Runs `connections` loops against baseUrl for `seconds`; `onAnswer` sees each answer (a
 * refresh chain keeps its next token from it).
 */
export async function runLoad(opts: LoadOptions & { seconds: number }): Promise<LoadResult> {
  const load = createLoad(opts);
  await load.runFor(opts.seconds);
  return load.result();
}
