import type { DbOrTx } from '../../../db/client.ts';
import { csvLine } from '../../../db/csv.ts';
import { centsText } from '../../../db/money.ts';
import { loadRunPayees, type RunPayees } from './payees.ts';

/**
 * The generic CSV of a run: one row per payout whatever the method (PayPal, Wise, bank
 * transfer, check, other, or none), with the publisher's payment details, for paying by hand
 * or for the books. No processor imports it; it is the network's own format (RFC 4180, CRLF,
 * a header row). Text a spreadsheet would run as a formula gets a leading apostrophe.
 */
export const GENERIC_HEADER = [
  'publisher_name',
  'publisher_email',
  'payment_method',
  'payment_account',
  'tax_form_status',
  'amount',
  'currency',
  'reference',
  'payout_id',
  'holder_name',
  'routing_number',
  'account_type',
] as const;

function* lines(run: RunPayees): Generator<string> {
  yield csvLine([...GENERIC_HEADER]);
  for (const p of run.payees) {
    const d = p.payment;
    yield csvLine([
      p.name ?? '',
      p.email,
      d.method ?? '',
      d.account ?? '',
      d.tax_form_status,
      centsText(p.amount),
      run.currency,
      p.reference,
      p.payoutId,
      d.holder_name ?? '',
      d.routing_number ?? '',
      d.account_type ?? '',
    ]);
  }
}

export const GENERIC_CSV = {
  render: (run: RunPayees): string => [...lines(run)].join(''),
};

/** The same CSV as lines, for the streamed /payout-runs/:id/export.csv (404 before any line). */
export async function genericCsvLines(db: DbOrTx, runId: string): Promise<AsyncIterable<string>> {
  const run = await loadRunPayees(db, runId);
  return (async function* () {
    yield* lines(run);
  })();
}
