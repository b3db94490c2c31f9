import { asc, eq } from 'drizzle-orm';
import {
  type PaymentDetails,
  type paymentMethods,
  statementNumber,
} from '../../../../contract/money.ts';
import type { PaymentFileFormat } from '../../../../contract/payment-files.ts';
import type { DbOrTx } from '../../../db/client.ts';
import { cents } from '../../../db/money.ts';
import { paymentDetails, payouts, users } from '../../../db/schema.ts';
import { getSettings } from '../../../db/settings.ts';
import { ledgerSettings } from '../ledger.service.ts';
import { NO_DETAILS, toPaymentDetails } from '../payment-details.service.ts';
import { getRun } from '../runs.service.ts';

/** The payouts of a run as every payment file reads them (the formats import this, not index.ts). */

export type PaymentMethod = (typeof paymentMethods)[number];

/** One payout of the run, with what every file needs to know about it. */
export type Payee = {
  payoutId: string;
  publisherId: string;
  name: string | null;
  email: string;
  /** Exact cents. */
  amount: bigint;
  /** `RUN-1a2b3c4d-5e6f7a8b`, or the bank's reference once the run is marked paid. */
  reference: string;
  /** `ST-2026-000123`: the statement the publisher can read; null for older payouts. */
  statement: string | null;
  payment: PaymentDetails;
};

/** The run as the files see it. */
export type RunPayees = {
  id: string;
  status: 'recorded' | 'paid' | 'void';
  /** YYYY-MM-DD of the run's creation (UTC): in every file name. */
  date: string;
  currency: string;
  /** The network's name (settings): in notes and the NACHA company name. */
  companyName: string;
  payees: Payee[];
};

/** A processor's file: which payouts it carries, what it needs of them, how it is written. */
export type ProcessorFormat = {
  format: Exclude<PaymentFileFormat, 'csv'>;
  method: PaymentMethod;
  specUrl: string;
  extension: 'csv' | 'ach';
  contentType: string;
  /** The most payments the processor takes in one file. */
  maxRows: number;
  /** Why this payout cannot go in the file (in the admin's words), or null. */
  problem(p: Payee, run: RunPayees): string | null;
};

/** Reads the run's payouts with their publishers and payment details (404 for no such run). */
export async function loadRunPayees(db: DbOrTx, runId: string): Promise<RunPayees> {
  const run = await getRun(db, runId);
  const [settings, ledger] = await Promise.all([getSettings(db), ledgerSettings(db)]);
  const rows = await db
    .select({
      payoutId: payouts.id,
      publisherId: payouts.publisherId,
      name: users.name,
      email: users.email,
      amount: payouts.amount,
      reference: payouts.reference,
      statementYear: payouts.statementYear,
      statementSeq: payouts.statementSeq,
      details: paymentDetails,
    })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.publisherId))
    .leftJoin(paymentDetails, eq(paymentDetails.publisherId, payouts.publisherId))
    .where(eq(payouts.runId, runId))
    .orderBy(asc(users.email), asc(payouts.id));
  return {
    id: run.id,
    status: run.status,
    date: run.created_at.slice(0, 10),
    currency: ledger.currency,
    companyName: settings.companyName,
    payees: rows.map((r) => ({
      payoutId: r.payoutId,
      publisherId: r.publisherId,
      name: r.name,
      email: r.email,
      amount: cents(r.amount),
      reference: r.reference ?? `RUN-${run.id.slice(0, 8)}-${r.payoutId.slice(0, 8)}`,
      statement: statementNumber(r.statementYear, r.statementSeq),
      payment: r.details ? toPaymentDetails(r.details) : NO_DETAILS,
    })),
  };
}
