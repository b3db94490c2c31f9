/**
 * What the browser downloads to show each entry screen of the built SPA, read from Vite's build
 * manifest (dist/web/.vite/manifest.json): the entry's JS and its static imports, plus the
 * screen's lazy chunks and their static imports, each file once. CSS is listed apart.
 *
 *   node --import tsx scripts/bundle-report.ts [--dir dist/web] [--check]
 *
 * `npm run build` prints the table (vite.config.ts calls `printBundleReport` after writing);
 * `--check` exits 1 when a screen passes its gzip budget (CI's "bundle budget" step).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One record of `.vite/manifest.json`, keyed by source path (or `_name-hash.js` for shared chunks). */
export type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
export type Manifest = Record<string, ManifestChunk>;

export type ScreenBudget = {
  name: string;
  /** Source modules the screen loads lazily before it can show (route chunk, frame). */
  lazy: string[];
  /**
   * What the screen fetches right after it shows (a chart behind its skeleton, the session
   * client behind the login form): printed as "then", not counted in the budget.
   */
  deferred?: string[];
  /** Most gzip JS (KB) the screen may download in total. */
  budgetKb: number;
  /**
   * The address the screen is opened at, when the server sends it its own copy of index.html
   * that preloads its chunks (scripts/entry-pages.ts).
   */
  path?: string;
};

/**
 * The session client (@supabase/auth-js, web/lib/auth-client.ts): a chunk of its own that the
 * app fetches as it starts. /login shows its form without it (a submit waits for it); a
 * signed-in screen needs the stored session first, so it counts there.
 */
const authClient = 'web/lib/auth-client.ts';

/** What every signed-in first screen loads before its own chunk: session, route tables, frame. */
export const signedIn = [authClient, 'web/app/signed-in-routes.tsx', 'web/app/area-frame.tsx'];

/**
 * The screens with a budget (issue 12): /login ≤ 150 KB gzip of JS (the login form is in the
 * entry chunk: no second round trip), each area's first screen ≤ 230 KB (it was 255 while the
 * admin dashboard and the publisher overview also loaded zod, ~33 KB gzip, for a few constants:
 * those now come from zod-free contract modules, contract/report-days.ts and the like, and a
 * schema import on a first screen shows here). The live counters, the new-calls bar and the
 * script notice load after the cards; the dashboards' charts (recharts, ~125 KB gzip alone)
 * right after the cards, behind a skeleton.
 */
const FIRST_SCREEN_KB = 230;
export const screens: ScreenBudget[] = [
  { name: 'login', lazy: [], deferred: [authClient], budgetKb: 150 },
  {
    name: 'admin dashboard',
    path: '/admin',
    lazy: [...signedIn, 'web/features/admin/dashboard/components/admin-dashboard-page.tsx'],
    deferred: ['web/features/admin/dashboard/components/activity-chart.tsx'],
    budgetKb: FIRST_SCREEN_KB,
  },
  {
    name: 'publisher overview',
    path: '/dashboard',
    lazy: [...signedIn, 'web/features/publisher/components/overview-page.tsx'],
    deferred: ['web/features/publisher/components/daily-chart.tsx'],
    budgetKb: FIRST_SCREEN_KB,
  },
  {
    name: 'buyer dashboard',
    path: '/buyer-dashboard',
    lazy: [...signedIn, 'web/features/buyer/components/buyer-dashboard-page.tsx'],
    budgetKb: FIRST_SCREEN_KB,
  },
];

export type FileSize = { file: string; raw: number; gzip: number };
export type ScreenReport = {
  name: string;
  budgetKb: number;
  js: FileSize[];
  css: FileSize[];
  jsRaw: number;
  jsGzip: number;
  cssGzip: number;
  /** JS the deferred widgets add (files not already counted). */
  deferredJs: FileSize[];
  deferredGzip: number;
  /** Lazy modules the manifest does not know (renamed, or no longer split). */
  missing: string[];
};

/** The entry's key (index.html) and every chunk statically reachable from `keys`, each once. */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...seen];
}

export function measureScreens(
  dir: string,
  manifest: Manifest,
  budgets: ScreenBudget[] = screens,
): ScreenReport[] {
  const sizes = new Map<string, FileSize>();
  const sizeOf = (file: string): FileSize => {
    let size = sizes.get(file);
    if (!size) {
      const bytes = readFileSync(path.join(dir, file));
      size = { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
      sizes.set(file, size);
    }
    return size;
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('The manifest has no entry chunk (index.html).');

  return budgets.map((screen) => {
    const deferred = screen.deferred ?? [];
    const missing = [...screen.lazy, ...deferred].filter((key) => !manifest[key]);
    const keys = staticClosure(manifest, [entry, ...screen.lazy]);
    const js = keys.map((key) => sizeOf(manifest[key]!.file));
    const later = staticClosure(manifest, deferred).filter((key) => !keys.includes(key));
    const deferredJs = later.map((key) => sizeOf(manifest[key]!.file));
    const cssFiles = [...new Set(keys.flatMap((key) => manifest[key]!.css ?? []))];
    const css = cssFiles.map(sizeOf);
    const sum = (list: FileSize[], k: 'raw' | 'gzip') => list.reduce((n, f) => n + f[k], 0);
    return {
      deferredJs,
      deferredGzip: sum(deferredJs, 'gzip'),
      name: screen.name,
      budgetKb: screen.budgetKb,
      js,
      css,
      jsRaw: sum(js, 'raw'),
      jsGzip: sum(js, 'gzip'),
      cssGzip: sum(css, 'gzip'),
      missing,
    };
  });
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1);

/** The table `npm run build` prints: one line per screen, then the files of each. */
export function formatReport(reports: ScreenReport[]): string {
  const lines = [
    '',
    'JS each entry screen downloads before it shows (KB = 1000 bytes, gzip -9; "then" = widgets',
    'fetched right after behind a skeleton; CSS apart):',
    '',
  ];
  const head = ['screen', 'files', 'JS raw', 'JS gzip', 'budget', 'then gzip', 'CSS gzip'];
  const rows = reports.map((r) => [
    r.name,
    String(r.js.length),
    kb(r.jsRaw),
    kb(r.jsGzip),
    `${r.budgetKb}${r.jsGzip > r.budgetKb * 1000 ? ' OVER' : ''}`,
    r.deferredJs.length ? `+${kb(r.deferredGzip)}` : '-',
    kb(r.cssGzip),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  lines.push(line(head), ...rows.map(line), '');
  for (const r of reports) {
    const sorted = [...r.js].sort((a, b) => b.gzip - a.gzip);
    const files = sorted.slice(0, 8).map((f) => `${path.basename(f.file)} ${kb(f.gzip)}`);
    const rest = sorted.slice(8);
    if (rest.length) {
      files.push(`${rest.length} more ${kb(rest.reduce((n, f) => n + f.gzip, 0))}`);
    }
    lines.push(`${r.name}: ${files.join(', ')}`);
    if (r.deferredJs.length) {
      const later = r.deferredJs.map((f) => `${path.basename(f.file)} ${kb(f.gzip)}`);
      lines.push(`  then: ${later.join(', ')}`);
    }
    if (r.missing.length) lines.push(`  not in the manifest: ${r.missing.join(', ')}`);
  }
  return lines.join('\n');
}

/** The screens over budget, or whose lazy modules vanished from the manifest (a renamed file). */
export function budgetProblems(reports: ScreenReport[]): string[] {
  const problems: string[] = [];
  for (const r of reports) {
    if (r.jsGzip > r.budgetKb * 1000) {
      problems.push(
        `${r.name} downloads ${kb(r.jsGzip)} KB of JS gzip, over its budget of ${r.budgetKb} KB`,
      );
    }
    if (r.missing.length) {
      problems.push(
        `${r.name}: ${r.missing.join(', ')} not in the build manifest (renamed? update scripts/bundle-report.ts)`,
      );
    }
  }
  return problems;
}

export function readManifest(dir: string): Manifest {
  const file = path.join(dir, '.vite/manifest.json');
  if (!existsSync(file)) {
    throw new Error(
      `${file} is missing: run \`npm run build\` (vite.config.ts sets build.manifest)`,
    );
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** Called by vite.config.ts after the build has written `dir`. */
export function printBundleReport(dir: string) {
  const reports = measureScreens(dir, readManifest(dir));
  console.log(formatReport(reports));
  for (const problem of budgetProblems(reports)) console.warn(`warning: ${problem}`);
}

function main(argv: string[]) {
  const dirAt = argv.indexOf('--dir');
  const dir = path.resolve(dirAt >= 0 && argv[dirAt + 1] ? argv[dirAt + 1]! : 'dist/web');
  const reports = measureScreens(dir, readManifest(dir));
  console.log(formatReport(reports));
  if (!argv.includes('--check')) return;
  const problems = budgetProblems(reports);
  if (problems.length) {
    for (const problem of problems) console.error(`bundle budget: ${problem}`);
    process.exit(1);
  }
  console.log('\nbundle budget: every screen is within its budget');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    console.error(`bundle report: ${(err as Error).message}`);
    process.exit(1);
  }
}
