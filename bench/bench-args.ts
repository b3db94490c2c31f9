// The options of `npm run bench`: the usage text, the parsing, and the checks of the sizes,
// the duration and the concurrency.
import { argsOrHelp, demoSizeOptions } from '../scripts/cli-args.ts';
import { DEFAULT_POOL_MAX } from '../server/config.ts';
import { fail } from './bench-children.ts';
import { compare } from './bench-report.ts';
import { FULL_SIZES, type Sizes, SMOKE_SIZES } from './fill.ts';

export const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/portal_bench';

export const USAGE = `Usage: npm run bench [-- options]
  Fills BENCH_DATABASE_URL (default ${DEFAULT_URL}) and measures the portal on it.
  --leads N  --publishers N  --big-publishers N  --buyers N  --offers N
  --applications N  --payouts N  --campaigns N  --audit N     data sizes (default: the issue's scale)
  --duration S        seconds per endpoint and concurrency (default 5)
  --concurrency L     comma-separated connection counts (default 10,50)
  --only TEXT[,TEXT]  only the endpoints whose name contains one of the TEXTs (the phases
                      after them by the start of their name: deliveries, live)
  --no-ladder         skip the point-read ladder
  --live-streams N    live streams held during the live row (default 500; --smoke 20)
  --smoke             tiny sizes, 0.4 s, c=2; exit 1 on any error (CI)
  --pglite            the embedded default instead: \`npm run demo\` data (--leads, --publishers,
                      --buyers passed on) in a temporary DATA_DIR, the portal on PGlite, c=10;
                      no ladder, bare route or database times (they are PostgreSQL's); with
                      --smoke: 2,000 leads, 0.4 s, c=2 (CI)
  --compare A.json B.json   print the change per row between two result files`;

export type BenchOptions = {
  smoke: boolean;
  pglite: boolean;
  sizes: Sizes;
  /** --leads, --publishers, --buyers as given, passed on to `npm run demo` (--pglite). */
  demo: { leads?: string; publishers?: string; buyers?: string };
  duration: number;
  concurrency: number[];
  /** Streams of GET /api/v1/live held during the live row (bench/bench-live.ts). */
  liveStreams: number;
  /** --only as given. */
  only: string | undefined;
  noLadder: boolean;
  dbUrl: string;
  poolMax: number;
};

/**
 * The options of this run, or null when there is nothing to run: --help printed the usage, or
 * --compare printed its comparison. A bad option throws a BenchError.
 */
export function readOptions(): BenchOptions | null {
  const parsed = argsOrHelp(
    {
      allowPositionals: true,
      options: {
        ...demoSizeOptions,
        'big-publishers': { type: 'string' },
        offers: { type: 'string' },
        applications: { type: 'string' },
        payouts: { type: 'string' },
        campaigns: { type: 'string' },
        audit: { type: 'string' },
        duration: { type: 'string' },
        concurrency: { type: 'string' },
        only: { type: 'string' },
        'no-ladder': { type: 'boolean' },
        'live-streams': { type: 'string' },
        smoke: { type: 'boolean' },
        pglite: { type: 'boolean' },
        compare: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    USAGE,
    fail,
  );
  if (!parsed) return null;
  const { values, positionals } = parsed;
  if (values.compare) {
    if (positionals.length !== 2) fail('--compare needs two result files: --compare A.json B.json');
    compare(positionals[0]!, positionals[1]!);
    return null;
  }
  const smoke = values.smoke === true;
  const whole = (name: string, v: string | undefined, d: number, min = 0) => {
    if (v === undefined) return d;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min)
      fail(`--${name} must be a whole number of at least ${min}, got "${v}".`);
    return n;
  };
  const base = smoke ? SMOKE_SIZES : FULL_SIZES;
  const sizes: Sizes = {
    publishers: whole('publishers', values.publishers, base.publishers, 4),
    bigPublishers: whole('big-publishers', values['big-publishers'], base.bigPublishers, 1),
    buyers: whole('buyers', values.buyers, base.buyers, 1),
    offers: whole('offers', values.offers, base.offers, 1),
    applications: whole('applications', values.applications, base.applications),
    leads: whole('leads', values.leads, base.leads),
    payouts: whole('payouts', values.payouts, base.payouts),
    campaigns: whole('campaigns', values.campaigns, base.campaigns),
    audit: whole('audit', values.audit, base.audit),
  };
  if (sizes.bigPublishers > 9)
    fail('--big-publishers must be at most 9 (each owns ~10% of the leads).');
  if (sizes.applications > sizes.publishers * Math.min(sizes.offers, 5)) {
    fail(
      '--applications must be at most publishers × min(offers, 5) (each publisher applies to a few offers).',
    );
  }
  // The smoke's rows only have to answer 2xx: 0.4 s at c=2 is still dozens of requests a row
  // (the slowest, sign-in, ~25), and halves CI's two smoke steps (154 → 79 s on PostgreSQL).
  const duration = Number(values.duration ?? (smoke ? 0.4 : 5));
  if (!(duration > 0 && duration <= 600)) fail('--duration must be a number of seconds (0-600).');
  const concurrency = (values.concurrency ?? (smoke ? '2' : values.pglite ? '10' : '10,50'))
    .split(',')
    .map((s) => {
      const n = Number(s.trim());
      if (!Number.isInteger(n) || n < 1 || n > 500)
        fail(`--concurrency takes numbers from 1 to 500, got "${s}".`);
      return n;
    });
  const pglite = values.pglite === true;
  const dbUrl = process.env.BENCH_DATABASE_URL || DEFAULT_URL;
  // The portal's pool (DB_POOL_MAX, else its default); the ladder's rungs get the same.
  const poolMax = whole('DB_POOL_MAX', process.env.DB_POOL_MAX, DEFAULT_POOL_MAX, 1);
  return {
    smoke,
    pglite,
    sizes,
    // --smoke --pglite (CI): a small demo, a few thousand leads, unless sizes are given.
    demo: {
      leads: values.leads ?? (smoke ? '2000' : undefined),
      publishers: values.publishers ?? (smoke ? '12' : undefined),
      buyers: values.buyers ?? (smoke ? '3' : undefined),
    },
    duration,
    concurrency,
    liveStreams: whole('live-streams', values['live-streams'], smoke ? 20 : 500, 1),
    only: values.only,
    noLadder: values['no-ladder'] === true,
    dbUrl,
    poolMax,
  };
}
