// `npm run demo`: fills an EMPTY database (the one the server uses: DATABASE_URL, else the
// embedded one under DATA_DIR) with believable demo data and prints the accounts to try.
// Options: --leads 5000 --publishers 48 --buyers 7 --password demo-pass --seed 1
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadEnvFile } from 'node:process';
import { ConfigError, loadConfig } from '../server/config.ts';
import { type Database, openDatabase } from '../server/db/client.ts';
import {
  callOwner,
  DataDirBusyError,
  findOwner,
  OwnerOpError,
} from '../server/db/data-dir-owner.ts';
import { ensureSettings } from '../server/db/settings.ts';
import { seedDemoOutbound } from '../server/demo/demo-outbound.ts';
import {
  assertDemoTargetEmpty,
  DEFAULT_DEMO_SIZE,
  DemoRefusedError,
  type DemoSummary,
  seedDemoData,
} from '../server/demo/demo-seed.service.ts';
import { createStorage } from '../server/storage/index.ts';
import { argsOrHelp, demoSizeOptions } from './cli-args.ts';

const DEFAULT_PASSWORD = 'demo-pass-2024';

const USAGE = `Usage: npm run demo [-- options]
Fills an empty database with demo data (the server's own config: DATABASE_URL, else DATA_DIR).
  --leads N        leads over the last 90 days (default ${DEFAULT_DEMO_SIZE.leads})
  --publishers N   publishers, at least 4 (default ${DEFAULT_DEMO_SIZE.publishers})
  --buyers N       buyers, at least 2 (default ${DEFAULT_DEMO_SIZE.buyers})
  --password P     the password of every demo account (default ${DEFAULT_PASSWORD})
  --seed N         another seed gives other (but equally believable) data`;

/** A problem the operator can fix; printed without a stack trace. */
class CliError extends Error {}

function fail(message: string): never {
  throw new CliError(message);
}

function count(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a whole number, got "${value}".`);
  return n;
}

function printSummary(s: DemoSummary, password: string, publicUrl: string, seconds: number) {
  const n = (v: number) => v.toLocaleString('en-US');
  const lines = [
    '',
    `  Demo data ready in ${seconds.toFixed(1)} s:`,
    `    publishers   ${n(s.publishers.approved)} approved, ${n(s.publishers.active)} legacy active, ${n(s.publishers.pending)} pending, ${n(s.publishers.blocked)} blocked; ${n(s.agreements)} with an agreement`,
    `    offers       ${n(s.offers.active)} active, ${n(s.offers.inactive)} inactive, in ${s.verticals} verticals`,
    `    applications ${n(s.applications.approved)} approved (${n(s.applicationsWithIo)} with IO), ${n(s.applications.pending)} pending, ${n(s.applications.rejected)} rejected, ${n(s.applications.draft)} draft; ${n(s.complianceSubmissions)} compliance submissions`,
    `    leads        ${n(s.leads.approved + s.leads.pending + s.leads.rejected)} over 90 days: ${n(s.leads.approved)} approved, ${n(s.leads.pending)} pending, ${n(s.leads.rejected)} rejected`,
    `    payouts      ${n(s.payouts.count)}, $${s.payouts.total.toLocaleString('en-US', { minimumFractionDigits: 2 })} in total`,
    `    buyers       ${n(s.buyers.active)} active, ${n(s.buyers.blocked)} blocked, with ${n(s.campaigns)} campaigns; the demo buyer: ${n(s.buyerBilling.campaigns)} approved, ${n(s.buyerBilling.billed)} billed calls, a return, ${n(s.buyerBilling.invoices)} invoice`,
    `    files        ${n(s.files.count)} stored (${(s.files.bytes / 1024).toFixed(0)} KB); ${n(s.auditEntries)} audit entries`,
    `    tracker      ${s.integration.name}: ${n(s.integration.calls)} calls in ${n(s.integration.events)} events: ${n(s.integration.leads.pending)} pending, ${n(s.integration.leads.approved)} approved, ${n(s.integration.leads.rejected)} rejected; ${n(s.integration.overridden)} decided by hand`,
    `                 its key (for a test postback to /api/v1/ingest/calls): ${s.integration.key}`,
    '',
    `  Sign in at ${publicUrl}/login, every demo account's password is: ${password}`,
    '',
  ];
  const rows = [['', 'e-mail', 'status'], ...s.accounts.map((a) => [a.what, a.email, a.status])];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  rows.forEach((r, i) => {
    lines.push(`    ${r.map((cell, c) => cell.padEnd(widths[c]!)).join('   ')}`.trimEnd());
    if (i === 0) lines.push(`    ${widths.map((w) => '-'.repeat(w)).join('   ')}`);
  });
  console.log(`${lines.join('\n')}\n`);
}

async function main() {
  const options = {
    ...demoSizeOptions,
    password: { type: 'string' },
    seed: { type: 'string' },
    help: { type: 'boolean' },
  } as const;
  const parsed = argsOrHelp({ options }, USAGE, fail);
  if (!parsed) return;
  const args = parsed.values;
  if (existsSync('.env')) loadEnvFile('.env');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(`Configuration error: ${err.message}`);
    throw err;
  }
  if (config.nodeEnv === 'production') {
    fail(
      'npm run demo creates accounts that share one printed password, so it does not run with NODE_ENV=production.',
    );
  }
  const size = {
    leads: count('leads', args.leads, DEFAULT_DEMO_SIZE.leads),
    publishers: count('publishers', args.publishers, DEFAULT_DEMO_SIZE.publishers),
    buyers: count('buyers', args.buyers, DEFAULT_DEMO_SIZE.buyers),
  };
  const password = args.password ?? DEFAULT_PASSWORD;
  const seed = count('seed', args.seed, 20_240_601);

  const pgdata = path.join(config.dataDir, 'pgdata');
  const started = performance.now();
  if (!config.databaseUrl && (await findOwner(config.dataDir))) {
    // A portal runs on this data folder: it fills its own database (live at once).
    console.log(`  Filling the database of the portal running on ${config.dataDir}...`);
    try {
      const summary = (await callOwner(
        config.dataDir,
        'demo',
        { size, password, seed },
        { onProgress: (line) => console.log(`  ${line}`) },
      )) as DemoSummary & { publicUrl: string };
      printSummary(summary, password, summary.publicUrl, (performance.now() - started) / 1000);
      return;
    } catch (err) {
      if (err instanceof OwnerOpError) fail(err.message);
      throw err;
    }
  }

  let database: Database;
  try {
    database = await openDatabase(config);
    await database.underStartupLock(() => database.migrate());
  } catch (err) {
    if (err instanceof DataDirBusyError) fail(err.message);
    const why = err instanceof Error ? err.message : String(err);
    fail(
      config.databaseUrl
        ? `Could not open the PostgreSQL database (DATABASE_URL): ${why}`
        : `Could not open the embedded database at ${pgdata}: ${why}`,
    );
  }
  try {
    await ensureSettings(database.db);
    await assertDemoTargetEmpty(database.db);
    console.log(`  Filling ${database.description}...`);
    const storage = createStorage(config);
    console.log(
      `  Files go to ${config.s3 ? `S3 bucket ${config.s3.bucket}` : path.join(config.dataDir, 'storage')}`,
    );
    const summary = await seedDemoData({
      db: database.db,
      storage,
      password,
      size,
      seed,
      onProgress: (line) => console.log(`  ${line}`),
      publicUrl: config.publicUrl,
    });
    const outbound = await seedDemoOutbound({
      db: database.db,
      publisherEmail: summary.accounts.find((a) => a.role === 'publisher')!.email,
      adminEmail: summary.accounts.find((a) => a.role === 'admin')!.email,
      base: `http://127.0.0.1:${config.port}`,
    });
    printSummary(summary, password, config.publicUrl, (performance.now() - started) / 1000);
    console.log(
      [
        `  Outbound: the approved publisher's postback → ${outbound.postbackUrl}`,
        `            a webhook endpoint → ${outbound.webhookUrl}`,
        `            ${outbound.leadsApproved} of their calls approved: the portal sends their postbacks and`,
        '            webhooks to its own /dev/sink when it starts (served while the dev mailbox is).',
        '',
      ].join('\n'),
    );
  } catch (err) {
    if (err instanceof DemoRefusedError) fail(err.message);
    throw err;
  } finally {
    // A clean close matters: PGlite removes its postmaster.pid only then, and the folder is freed.
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    if (err instanceof CliError) console.error(`\n  ${err.message}\n`);
    else
      console.error(
        'npm run demo failed:',
        err instanceof Error ? (err.stack ?? err.message) : err,
      );
    process.exit(1);
  },
);
