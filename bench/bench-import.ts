// The CSV import benchmark (issue 13): `npm run bench -- --only "csv import"`.
import type pg from 'pg';
import { fail } from './bench-children.ts';
import { fmt, type ImportFigures } from './bench-report.ts';
import { importCsv } from './fill.ts';

/**
 * The CSV import through the API as the screen drives it: upload, check (dry run), import,
 * polling the job; then the same file again (nothing may change), and one bulk approve of all
 * imported leads (dated January 2001, so no other lead matches). The imported leads and their
 * audit rows are removed afterwards, so the fill stays reusable.
 */
export async function benchImport(opts: {
  portalUrl: string;
  token: string;
  rows: number;
  db: pg.Client | undefined;
  say: (line: string) => void;
}): Promise<ImportFigures> {
  const { portalUrl, token, rows } = opts;
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${portalUrl}/api/v1/${p}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) fail(`${method} ${p} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const pubs = (await api('GET', 'admin/publishers?status=approved&page_size=50')).items as {
    id: string;
  }[];
  const offers = (await api('GET', 'admin/offers?page_size=20')).items as { id: string }[];
  if (!pubs.length || !offers.length) fail('No approved publisher or offer to import calls for.');
  const { run: importRun, csv, mapping } = importCsv(rows, pubs, offers);
  const until = async (id: string) => {
    for (;;) {
      const job = await api('GET', `admin/lead-imports/${id}`);
      if (job.status !== 'checking' && job.status !== 'importing') return job;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const timed = async (step: () => Promise<Record<string, unknown>>) => {
    const t0 = performance.now();
    const out = await step();
    return { out, secs: (performance.now() - t0) / 1000 };
  };
  const importFile = async () => {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), `bench-import-${importRun}.csv`);
    const made = await api('POST', 'admin/lead-imports', form);
    const id = made.id as string;
    const check = await timed(async () => {
      await api('POST', `admin/lead-imports/${id}/check`, { mapping });
      return until(id);
    });
    if (check.out.status !== 'checked') fail(`The import check failed: ${check.out.message}`);
    const imp = await timed(async () => {
      await api('POST', `admin/lead-imports/${id}/import`);
      return until(id);
    });
    if (imp.out.status !== 'imported') fail(`The import failed: ${imp.out.message}`);
    return { check, imp };
  };
  try {
    const first = await importFile();
    opts.say(
      `  check ${fmt(first.check.secs, 2)} s (${fmt(rows / first.check.secs, 0)} rows/s), import ${fmt(first.imp.secs, 2)} s (${fmt(rows / first.imp.secs, 0)} rows/s): ${first.imp.out.created} created`,
    );
    if (first.imp.out.created !== rows)
      fail(`The import created ${first.imp.out.created} of ${rows} leads.`);
    const again = await importFile();
    opts.say(
      `  the same file again: check ${fmt(again.check.secs, 2)} s, import ${fmt(again.imp.secs, 2)} s: ${again.imp.out.created} created, ${again.imp.out.updated} updated, ${again.imp.out.unchanged} unchanged`,
    );
    if (again.imp.out.created !== 0 || again.imp.out.updated !== 0) {
      fail('Importing the same file again changed leads.');
    }
    const bulk = await timed(() =>
      api('POST', 'admin/leads/bulk-status', {
        status: 'approved',
        reason: 'other',
        note: 'benchmark',
        filter: { from: '2001-01-01', to: '2001-01-31' },
      }),
    );
    opts.say(`  bulk approve: ${bulk.out.changed} leads in ${fmt(bulk.secs, 2)} s`);
    return {
      rows,
      upload: Buffer.byteLength(csv),
      checkSeconds: first.check.secs,
      importSeconds: first.imp.secs,
      reimportCheckSeconds: again.check.secs,
      reimportSeconds: again.imp.secs,
      bulkSeconds: bulk.secs,
      bulkChanged: Number(bulk.out.changed),
    };
  } finally {
    if (opts.db) {
      await opts.db.query(
        `delete from audit_log where entity_type = 'lead' and entity_id in
           (select id::text from leads where external_call_id like $1)`,
        [`bench-import-${importRun}-%`],
      );
      await opts.db.query('delete from leads where external_call_id like $1', [
        `bench-import-${importRun}-%`,
      ]);
      await opts.db.query('delete from lead_imports where filename like $1', ['bench-import-%']);
    }
  }
}
