import { isAbaRoutingNumber, isUsAccountNumber } from '../../../../contract/money.ts';
import type { NachaSettings } from '../../../../contract/payment-files.ts';
import type { Payee, ProcessorFormat, RunPayees } from './payees.ts';

/**
 * NACHA ACH file of the run's US bank transfers: one batch of PPD credits (service class 220,
 * credits only), to be uploaded to the network's bank (the ODFI), which settles it.
 * Record layouts: Nacha's ACH Guide for Developers, https://achdevguide.nacha.org/ach-file-details
 *
 *   1 File Header      immediate destination/origin, creation date and time, 094, 10, 1
 *   5 Batch Header     220, company name and ID, PPD, entry description, effective date, ODFI
 *   6 Entry Detail     22 (checking credit) or 32 (savings credit), the publisher's routing
 *                      number (8 digits + check digit), account number, amount in cents,
 *                      statement number as identification, holder name, trace number
 *   8 Batch Control    entry count, entry hash, total debit (0) and credit, company ID, ODFI
 *   9 File Control     batch count, block count, entry count, entry hash, totals
 *   then lines of 94 `9`s until the line count is a multiple of 10 (blocking factor 10).
 *
 * Every record is 94 characters; records end with a line feed. The entry hash is the sum of
 * the entries' 8-digit receiving DFI numbers, its 10 rightmost digits kept. The file carries no
 * offsetting debit: the ODFI takes the run's total from the network's account, as agreed with
 * it. Text fields are upper-case ASCII (accents dropped, other characters become spaces).
 */

/** Largest amount of one entry (10 digits of cents) and of a file's totals (12 digits). */
const MAX_ENTRY = 9_999_999_999n;
const MAX_TOTAL = 999_999_999_999n;

const ACCOUNT_TYPE_CODE = { checking: '22', savings: '32' } as const;

export const NACHA = {
  format: 'nacha',
  method: 'bank_transfer',
  specUrl: 'https://achdevguide.nacha.org/ach-file-details',
  extension: 'ach',
  contentType: 'text/plain; charset=us-ascii',
  // One batch: its entry count has 6 digits, and trace numbers 7.
  maxRows: 999_999,
  problem(p: Payee) {
    const d = p.payment;
    if (!d.holder_name?.trim()) return 'No account holder name.';
    if (!d.routing_number) return 'No routing number.';
    if (!isAbaRoutingNumber(d.routing_number)) {
      return `The routing number ${d.routing_number} is not valid (9 digits with a matching check digit).`;
    }
    if (!d.account_type) return 'No account type (checking or savings).';
    if (!d.account || !isUsAccountNumber(d.account.trim())) {
      return 'The bank account number must be 4 to 17 digits.';
    }
    if (p.amount > MAX_ENTRY) return 'An ACH entry is at most $99,999,999.99.';
    return null;
  },
  render(payees: Payee[], run: RunPayees, settings: NachaSettings, now: Date): string {
    return nachaFile(payees, run, settings, now);
  },
} as const satisfies ProcessorFormat & { render: unknown };

/** Upper-case printable ASCII: accents dropped, anything else a space. */
function ascii(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, ' ')
    .toUpperCase();
}

/** An alphanumeric field: left-justified, space-filled, cut to its size. */
const alpha = (text: string, size: number) => ascii(text).slice(0, size).padEnd(size, ' ');

/** A numeric field: right-justified, zero-filled; a value too large for it is a bug. */
function num(value: bigint | number | string, size: number): string {
  const s = String(value);
  if (!/^\d+$/.test(s) || s.length > size) {
    throw new Error(`NACHA: ${s} does not fit a numeric field of ${size} digits`);
  }
  return s.padStart(size, '0');
}

/** A routing number as the file header carries it: a space, then its 9 digits. */
const routing10 = (routing: string) => ` ${routing}`;

/** YYMMDD and HHMM (UTC). */
const yymmdd = (d: Date) => d.toISOString().slice(2, 10).replaceAll('-', '');
const hhmm = (d: Date) => d.toISOString().slice(11, 16).replace(':', '');

/** The next weekday after `now` (UTC): the default effective entry date. */
export function nextWeekday(now: Date): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

function check(line: string): string {
  if (line.length !== 94) throw new Error(`NACHA: a record of ${line.length} characters`);
  return line;
}

/** The whole file: header, one PPD credit batch, control, and the 9-filled blocking lines. */
export function nachaFile(payees: Payee[], run: RunPayees, s: NachaSettings, now: Date): string {
  const odfi8 = s.odfi.slice(0, 8);
  const companyName = s.company_name || run.companyName;
  const companyId = s.company_id.toUpperCase();
  const effective = s.effective_date ? new Date(`${s.effective_date}T00:00:00Z`) : nextWeekday(now);
  const lines: string[] = [];

  // 1 File Header Record
  lines.push(
    check(
      [
        '1',
        '01', // priority code
        routing10(s.immediate_destination ?? s.odfi),
        (s.immediate_origin ?? companyId).toUpperCase().padStart(10, ' '),
        yymmdd(now),
        hhmm(now),
        (s.file_id_modifier ?? 'A').toUpperCase(),
        '094', // record size
        '10', // blocking factor
        '1', // format code
        alpha(s.immediate_destination_name ?? '', 23),
        alpha(s.immediate_origin_name || companyName, 23),
        alpha(run.id.slice(0, 8), 8), // reference code
      ].join(''),
    ),
  );

  // 5 Company/Batch Header Record
  const batchNumber = num(1, 7);
  lines.push(
    check(
      [
        '5',
        '220', // service class: credits only
        alpha(companyName, 16),
        alpha('', 20), // company discretionary data
        alpha(companyId, 10),
        'PPD',
        alpha(s.entry_description || 'PAYOUT', 10),
        alpha('', 6), // company descriptive date
        yymmdd(effective),
        alpha('', 3), // settlement date: the ACH operator fills it in
        '1', // originator status code: a depository financial institution
        odfi8,
        batchNumber,
      ].join(''),
    ),
  );

  // 6 Entry Detail Records
  let hash = 0n;
  let credit = 0n;
  payees.forEach((p, i) => {
    const d = p.payment;
    const rdfi = d.routing_number!;
    hash += BigInt(rdfi.slice(0, 8));
    credit += p.amount;
    lines.push(
      check(
        [
          '6',
          ACCOUNT_TYPE_CODE[d.account_type!],
          rdfi.slice(0, 8),
          rdfi.slice(8, 9), // check digit
          alpha(d.account!.trim(), 17),
          num(p.amount, 10),
          alpha(p.statement ?? p.payoutId.replaceAll('-', ''), 15), // individual identification
          alpha(d.holder_name!.replace(/\s+/g, ' ').trim(), 22),
          alpha('', 2), // discretionary data
          '0', // no addenda record
          odfi8 + num(i + 1, 7), // trace number
        ].join(''),
      ),
    );
  });
  if (credit > MAX_TOTAL) throw new Error('NACHA: the total does not fit 12 digits');
  const entryHash = num(hash % 10_000_000_000n, 10);
  const entries = payees.length;

  // 8 Company/Batch Control Record
  lines.push(
    check(
      [
        '8',
        '220',
        num(entries, 6), // entry/addenda count
        entryHash,
        num(0, 12), // total debit entry dollar amount
        num(credit, 12), // total credit entry dollar amount
        alpha(companyId, 10),
        alpha('', 19), // message authentication code
        alpha('', 6), // reserved
        odfi8,
        batchNumber,
      ].join(''),
    ),
  );

  // 9 File Control Record: records so far + this one, in blocks of 10.
  const blocks = Math.ceil((lines.length + 1) / 10);
  lines.push(
    check(
      [
        '9',
        num(1, 6), // batch count
        num(blocks, 6),
        num(entries, 8), // entry/addenda count
        entryHash,
        num(0, 12),
        num(credit, 12),
        alpha('', 39), // reserved
      ].join(''),
    ),
  );
  while (lines.length % 10 !== 0) lines.push('9'.repeat(94));
  return `${lines.join('\n')}\n`;
}
