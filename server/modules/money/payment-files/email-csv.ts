import { looksLikeEmail } from '../../../../contract/money.ts';
import type { Payee } from './payees.ts';

/** What the processors paying an e-mail address by a CSV file (PayPal, Wise) share. */
export const CSV_FILE = { extension: 'csv', contentType: 'text/csv; charset=utf-8' } as const;

/** Why a payout cannot go to the processor `name` that pays an e-mail address, or null. */
export function emailAccountProblem(p: Payee, name: string): string | null {
  const account = p.payment.account?.trim();
  if (!account) return `No ${name} e-mail address on file.`;
  if (!looksLikeEmail(account)) return `The ${name} account "${account}" is not an e-mail address.`;
  return null;
}
