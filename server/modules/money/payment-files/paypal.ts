import { csvLine } from '../../../db/csv.ts';
import { centsText } from '../../../db/money.ts';
import { CSV_FILE, emailAccountProblem } from './email-csv.ts';
import type { Payee, ProcessorFormat, RunPayees } from './payees.ts';

/**
 * PayPal Payouts batch file, as uploaded in PayPal's Payouts Web (Payments → Payouts):
 * https://developer.paypal.com/docs/payouts/standard/payouts-web/
 *
 * No header row; one payment per line, up to 5,000 per file, one currency per file:
 *   1 recipient identifier (the publisher's PayPal e-mail)
 *   2 amount (`25.00`: decimal point, no currency symbol)
 *   3 currency (ISO 4217, the network's book currency)
 *   4 customer ID (optional, at most 30 characters, no spaces): the payout's reference
 *     (`RUN-1a2b3c4d-5e6f7a8b`), which PayPal's reports carry back for reconciliation
 *   5 note to the recipient (optional, at most 400 characters): network and statement number
 *   6 recipient wallet: `PAYPAL`
 */
export const PAYPAL = {
  format: 'paypal',
  method: 'paypal',
  specUrl: 'https://developer.paypal.com/docs/payouts/standard/payouts-web/',
  ...CSV_FILE,
  maxRows: 5000,
  problem: (p: Payee) => emailAccountProblem(p, 'PayPal'),
  render(payees: Payee[], run: RunPayees): string {
    return payees
      .map((p) =>
        csvLine([
          p.payment.account!.trim(),
          centsText(p.amount),
          run.currency,
          p.reference.replace(/\s+/g, '').slice(0, 30),
          note(run, p),
          'PAYPAL',
        ]),
      )
      .join('');
  },
} as const satisfies ProcessorFormat & { render: unknown };

/** `Payout from Acme Calls, statement ST-2026-000012` (at most 400 characters, one line). */
function note(run: RunPayees, p: Payee): string {
  const text = `Payout from ${run.companyName}${p.statement ? `, statement ${p.statement}` : ''}`;
  return text.replace(/\s+/g, ' ').trim().slice(0, 400);
}
