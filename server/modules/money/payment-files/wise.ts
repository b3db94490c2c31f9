import { csvLine } from '../../../db/csv.ts';
import { centsText } from '../../../db/money.ts';
import { CSV_FILE, emailAccountProblem } from './email-csv.ts';
import type { Payee, ProcessorFormat, RunPayees } from './payees.ts';

/**
 * Wise batch payment file, the "Send by email" template (Wise Business → Send → Batch
 * payments): https://wise.com/help/articles/2663302/how-do-i-fill-in-my-batch-template
 *
 * A header row with Wise's column names, then one transfer per line, up to 1,000 per batch:
 *   name              the recipient's name as their bank knows it (the holder name)
 *   recipientEmail    the publisher's Wise e-mail: Wise asks them for their bank details
 *   paymentReference  what the publisher sees: the statement number (`ST-2026-000012`)
 *   receiverType      `PERSON` (Wise's other value, `INSTITUTION`, is for businesses)
 *   amountCurrency    `target`: the publisher receives exactly the amount, fees are the network's
 *   amount            `25.00`
 *   sourceCurrency    the network's book currency (what the batch is paid with)
 *   targetCurrency    the same currency (the publisher's own account converts if it must)
 */
export const WISE_HEADER = [
  'name',
  'recipientEmail',
  'paymentReference',
  'receiverType',
  'amountCurrency',
  'amount',
  'sourceCurrency',
  'targetCurrency',
] as const;

export const WISE = {
  format: 'wise',
  method: 'wise',
  specUrl: 'https://wise.com/help/articles/2663302/how-do-i-fill-in-my-batch-template',
  ...CSV_FILE,
  maxRows: 1000,
  problem(p: Payee) {
    const email = emailAccountProblem(p, 'Wise');
    if (email) return email;
    if (!p.payment.holder_name?.trim()) {
      return "No account holder name: Wise needs the recipient's name as their bank knows it.";
    }
    return null;
  },
  render(payees: Payee[], run: RunPayees): string {
    const lines = payees.map((p) =>
      csvLine([
        p.payment.holder_name!.replace(/\s+/g, ' ').trim(),
        p.payment.account!.trim(),
        (p.statement ?? p.reference).slice(0, 18),
        'PERSON',
        'target',
        centsText(p.amount),
        run.currency,
        run.currency,
      ]),
    );
    return csvLine([...WISE_HEADER]) + lines.join('');
  },
} as const satisfies ProcessorFormat & { render: unknown };
