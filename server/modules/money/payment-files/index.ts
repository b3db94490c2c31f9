import { PAYMENT_METHOD_LABELS, paymentMethods } from '../../../../contract/money.ts';
import {
  type LeftOutPayout,
  NachaSettings,
  PAYMENT_FILE_LABELS,
  type PaymentFileFormat,
  type PaymentFileList,
  type PaymentFileQuery,
  type PaymentFileSummary,
} from '../../../../contract/payment-files.ts';
import type { DbOrTx } from '../../../db/client.ts';
import { centsMoney, centsText } from '../../../db/money.ts';
import { groupRows } from '../../../db/rows.ts';
import { AppError, conflict } from '../../../errors.ts';
import { GENERIC_CSV } from './generic.ts';
import { NACHA } from './nacha.ts';
import { PAYPAL } from './paypal.ts';
import { WISE } from './wise.ts';

/**
 * Payment files of a payout run (issue 27): each processor gets the payouts of its method in
 * its own import format (PayPal Payouts CSV, Wise batch CSV, NACHA ACH for US bank transfers),
 * and the generic CSV lists every payout. The specifications are linked in each format's file
 * and in README.md beside this one.
 *
 * A payout whose payment details miss what a file needs (a PayPal account that is no e-mail,
 * a bank transfer without a valid routing number…) never goes into a broken file: the listing
 * names it under `left_out`, and the download is refused (409, naming the publishers) unless
 * the admin asks for the file without them (`skip_incomplete=true`).
 */

import type { ListRead } from '../../../db/list-query.ts';
import { loadRunPayees, type Payee, type ProcessorFormat, type RunPayees } from './payees.ts';

export type { Payee, PaymentMethod, ProcessorFormat, RunPayees } from './payees.ts';
export { loadRunPayees } from './payees.ts';

export const PROCESSOR_FORMATS: readonly ProcessorFormat[] = [PAYPAL, WISE, NACHA];

const processorFormat = (format: PaymentFileFormat) =>
  PROCESSOR_FORMATS.find((f) => f.format === format);

/** `run-2026-11-15-1a2b3c4d-paypal.csv`: the run's day and short id, then the format. */
export function paymentFileName(run: RunPayees, format: PaymentFileFormat): string {
  const base = `run-${run.date}-${run.id.slice(0, 8)}`;
  if (format === 'csv') return `${base}-all.csv`;
  return `${base}-${format}.${processorFormat(format)!.extension}`;
}

/** The payouts of the format's method, split into those the file carries and those it cannot. */
export function splitPayees(run: RunPayees, f: ProcessorFormat) {
  const included: Payee[] = [];
  const leftOut: LeftOutPayout[] = [];
  for (const p of run.payees) {
    if (p.payment.method !== f.method) continue;
    const reason =
      p.amount <= 0n ? 'Nothing to pay: the amount is not above zero.' : f.problem(p, run);
    if (reason) {
      leftOut.push({
        payout_id: p.payoutId,
        publisher_id: p.publisherId,
        publisher_name: p.name,
        publisher_email: p.email,
        amount: centsMoney(p.amount),
        reason,
      });
    } else {
      included.push(p);
    }
  }
  return { included, leftOut };
}

const sum = (payees: Payee[]) => payees.reduce((s, p) => s + p.amount, 0n);

/** GET /admin/payout-runs/:id/files: per method count and total, and the files the run has. */
export async function listRunFiles(db: DbOrTx, runId: string): Promise<PaymentFileList> {
  const run = await loadRunPayees(db, runId);
  const byMethod = groupRows(
    run.payees,
    (p) => p.payment.method,
    (p) => p,
  );
  const methods = [...paymentMethods, null]
    .filter((m) => byMethod.has(m))
    .map((m) => {
      const list = byMethod.get(m)!;
      return {
        method: m,
        label: m ? PAYMENT_METHOD_LABELS[m] : 'No payment details',
        count: list.length,
        total: centsMoney(sum(list)),
      };
    });
  const files: PaymentFileSummary[] = [];
  for (const f of PROCESSOR_FORMATS) {
    if (!byMethod.has(f.method)) continue;
    const { included, leftOut } = splitPayees(run, f);
    files.push({
      format: f.format,
      label: PAYMENT_FILE_LABELS[f.format],
      method: f.method,
      file_name: paymentFileName(run, f.format),
      count: included.length,
      total: centsMoney(sum(included)),
      left_out: leftOut,
      spec_url: f.specUrl,
    });
  }
  files.push({
    format: 'csv',
    label: PAYMENT_FILE_LABELS.csv,
    method: null,
    file_name: paymentFileName(run, 'csv'),
    count: run.payees.length,
    total: centsMoney(sum(run.payees)),
    left_out: [],
    spec_url: null,
  });
  return {
    run_id: run.id,
    currency: run.currency,
    count: run.payees.length,
    total: centsMoney(sum(run.payees)),
    methods,
    files,
  };
}

export type BuiltFile = {
  fileName: string;
  contentType: string;
  body: string;
  count: number;
  /** Exact total of the payouts in the file, as numeric text (`1234.50`). */
  total: string;
  leftOut: LeftOutPayout[];
};

const who = (l: LeftOutPayout) =>
  l.publisher_name ? `${l.publisher_name} (${l.publisher_email})` : l.publisher_email;

/** The 409 that names the publishers a file cannot carry, and what the admin can do. */
function incompleteError(f: ProcessorFormat, leftOut: LeftOutPayout[], someIncluded: boolean) {
  const lines = leftOut.map((l) => `${who(l)}: ${l.reason}`);
  const shown = lines.slice(0, 10).join(' ');
  const more = lines.length > 10 ? ` …and ${lines.length - 10} more.` : '';
  const n = leftOut.length;
  const head = `${n} publisher${n === 1 ? '' : 's'} paid by ${PAYMENT_METHOD_LABELS[f.method]} cannot be put in the ${PAYMENT_FILE_LABELS[f.format]} file.`;
  const tail = someIncluded
    ? 'Ask them to complete their payment details, or download the file without them and pay them another way.'
    : 'Ask them to complete their payment details, or pay them another way.';
  return new AppError('conflict', `${head} ${shown}${more} ${tail}`, {
    details: { publishers: lines },
  });
}

/** Builds one payment file of a run (GET /admin/payout-runs/:id/files/:format). */
export async function buildRunFile(
  opts: ListRead<PaymentFileQuery> & { runId: string; format: PaymentFileFormat; now?: Date },
): Promise<BuiltFile> {
  const run = await loadRunPayees(opts.db, opts.runId);
  const now = opts.now ?? new Date();
  if (opts.format === 'csv') {
    return {
      fileName: paymentFileName(run, 'csv'),
      contentType: 'text/csv; charset=utf-8',
      body: GENERIC_CSV.render(run),
      count: run.payees.length,
      total: centsText(sum(run.payees)),
      leftOut: [],
    };
  }
  const f = processorFormat(opts.format)!;
  const label = PAYMENT_METHOD_LABELS[f.method];
  if (run.status === 'void')
    throw conflict('This run is void: it pays nothing, so it has no payment files.');
  // The NACHA settings are checked first: a bad form is the admin's to fix before anything else.
  const nacha = f.format === 'nacha' ? parseNachaSettings(opts.query) : null;
  if (f.format === 'nacha' && run.currency !== 'USD') {
    throw conflict(
      `ACH moves US dollars only, and this network keeps its books in ${run.currency}: pay the bank transfers another way.`,
    );
  }
  const { included, leftOut } = splitPayees(run, f);
  if (!included.length && !leftOut.length) {
    throw conflict(`No payout of this run is paid by ${label}: there is no ${label} file.`);
  }
  if (leftOut.length && (opts.query.skip_incomplete !== 'true' || !included.length)) {
    throw incompleteError(f, leftOut, included.length > 0);
  }
  if (included.length > f.maxRows) {
    throw conflict(
      `${PAYMENT_FILE_LABELS[f.format]} files take at most ${f.maxRows.toLocaleString('en-US')} payments; this one would have ${included.length.toLocaleString('en-US')}. Split the run into smaller runs.`,
    );
  }
  const body =
    f.format === 'paypal'
      ? PAYPAL.render(included, run)
      : f.format === 'wise'
        ? WISE.render(included, run)
        : NACHA.render(included, run, nacha!, now);
  return {
    fileName: paymentFileName(run, f.format),
    contentType: f.contentType,
    body,
    count: included.length,
    total: centsText(sum(included)),
    leftOut,
  };
}

/** The NACHA download's settings, required here (the query makes them optional for other files). */
function parseNachaSettings(query: PaymentFileQuery): NachaSettings {
  const { skip_incomplete: _, ...rest } = query;
  const parsed = NachaSettings.safeParse(rest);
  if (parsed.success) return parsed.data;
  const details: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? 'nacha');
    details[key] = [...(details[key] ?? []), issue.message];
  }
  const [field, messages] = Object.entries(details)[0]!;
  throw new AppError(
    'validation_failed',
    `The NACHA file needs the network's bank settings: ${field}: ${messages[0]}`,
    { details },
  );
}
