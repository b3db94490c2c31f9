import { and, eq, inArray } from 'drizzle-orm';
import {
  ACCOUNT_TYPE_LABELS,
  PAYMENT_METHOD_LABELS,
  type PaymentDetails,
  type UpdatePaymentDetails,
} from '../../../contract/money.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { auditLog, paymentDetails, users } from '../../db/schema.ts';
import { renderMail } from '../../mail/layout.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { getMailBrand } from '../../mail/templates.ts';

/**
 * How each publisher is paid (issue 14), structured for the processors' files (issue 27): the
 * method, the account, the holder's name, and for US bank transfers the routing number and the
 * account type. The tax form columns of the same row belong to the tax form's own service.
 */

export const NO_DETAILS: PaymentDetails = {
  method: null,
  account: null,
  holder_name: null,
  routing_number: null,
  account_type: null,
  tax_form_status: 'not_submitted',
  updated_at: null,
};

type Row = typeof paymentDetails.$inferSelect;

export function toPaymentDetails(row: Row | null | undefined): PaymentDetails {
  if (!row) return NO_DETAILS;
  return {
    method: row.method,
    account: row.account,
    holder_name: row.holderName,
    routing_number: row.routingNumber,
    account_type: row.accountType,
    tax_form_status: row.taxFormStatus,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Payment details of several publishers at once. */
export async function paymentDetailsOf(
  db: DbOrTx,
  publisherIds: string[],
): Promise<Map<string, PaymentDetails>> {
  if (!publisherIds.length) return new Map();
  const rows = await db
    .select()
    .from(paymentDetails)
    .where(inArray(paymentDetails.publisherId, publisherIds));
  return new Map(rows.map((r) => [r.publisherId, toPaymentDetails(r)]));
}

export async function getPaymentDetails(db: DbOrTx, publisherId: string): Promise<PaymentDetails> {
  const [row] = await db
    .select()
    .from(paymentDetails)
    .where(eq(paymentDetails.publisherId, publisherId));
  return toPaymentDetails(row);
}

/** `…6789`: the last four characters of a bank account number, for mail. */
const lastFour = (account: string) => `…${account.slice(-4)}`;

/** One line of mail saying how a publisher is paid (bank account numbers shortened). */
function describe(d: {
  method: Row['method'];
  account: string | null;
  holderName: string | null;
  routingNumber: string | null;
  accountType: Row['accountType'];
}): string {
  if (!d.method) return 'no payment method';
  const holder = d.holderName ? `, in the name of ${d.holderName}` : '';
  if (d.method === 'bank_transfer') {
    const type = d.accountType ? `${ACCOUNT_TYPE_LABELS[d.accountType].toLowerCase()} ` : '';
    return `${PAYMENT_METHOD_LABELS.bank_transfer}: ${type}account ${lastFour(d.account ?? '')}, routing number ${d.routingNumber ?? 'none'}${holder}`;
  }
  return `${PAYMENT_METHOD_LABELS[d.method]}: ${d.account ?? ''}${holder}`;
}

/** A publisher's payment details row (none yet: undefined), locked for a change. */
export async function lockPaymentDetails(
  tx: DbOrTx,
  publisherId: string,
): Promise<Row | undefined> {
  const [row] = await tx
    .select()
    .from(paymentDetails)
    .where(eq(paymentDetails.publisherId, publisherId))
    .for('update');
  return row;
}

/** Writes `set` on a publisher's payment details row, made with it when there is none yet. */
export async function upsertPaymentDetails(
  tx: DbOrTx,
  publisherId: string,
  set: Omit<typeof paymentDetails.$inferInsert, 'publisherId'>,
): Promise<void> {
  await tx
    .insert(paymentDetails)
    .values({ publisherId, ...set })
    .onConflictDoUpdate({ target: paymentDetails.publisherId, set });
}

/**
 * The publisher sets how they are paid: saved, audited (before → after) and told to every
 * active admin by mail, in one transaction. The row may already exist for a tax form alone
 * (method null): the upsert writes the payment columns only, never the tax form's.
 */
export async function updatePaymentDetails(opts: {
  db: Db;
  publisher: { id: string; email: string; name: string | null };
  input: UpdatePaymentDetails;
  adminUrl: string;
}): Promise<PaymentDetails> {
  const { publisher, input } = opts;
  const bank = input.method === 'bank_transfer';
  const values = {
    method: input.method,
    account: input.account,
    holderName: input.holder_name,
    // Routing number and account type belong to US bank transfers only.
    routingNumber: bank ? (input.routing_number ?? null) : null,
    accountType: bank ? (input.account_type ?? null) : null,
  };
  return opts.db.transaction(async (tx) => {
    const before = await lockPaymentDetails(tx, publisher.id);
    const [after] = await tx
      .insert(paymentDetails)
      .values({ publisherId: publisher.id, ...values, taxFormStatus: 'not_submitted' })
      .onConflictDoUpdate({
        target: paymentDetails.publisherId,
        set: { ...values, updatedAt: new Date() },
      })
      .returning();
    const view = (r: Row | undefined) =>
      r?.method
        ? {
            method: r.method,
            account: r.account,
            holder_name: r.holderName,
            routing_number: r.routingNumber,
            account_type: r.accountType,
          }
        : null;
    await tx.insert(auditLog).values({
      actorId: publisher.id,
      actorEmail: publisher.email,
      action: 'payment_details.update',
      entityType: 'publisher',
      entityId: publisher.id,
      before: view(before),
      after: view(after),
    });
    const admins = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.role, 'admin'), inArray(users.status, ['active'])));
    if (admins.length) {
      const brand = await getMailBrand(tx);
      const who = (publisher.name || publisher.email).replace(/\s+/g, ' ').trim();
      const { html, text } = renderMail(brand, {
        heading: 'A publisher changed their payment details',
        paragraphs: [
          `${who} (${publisher.email}) changed how they are paid.`,
          `Now: ${describe(values)}.`,
          before?.method ? `Before: ${describe(before)}.` : 'They had no payment details before.',
          'Check them before the next payout run.',
        ],
        action: { label: 'Open the balances', url: opts.adminUrl },
      });
      for (const a of admins) {
        await enqueueMail(tx, {
          to: a.email,
          subject: `${who} changed their payment details`,
          text,
          html,
        });
      }
    }
    return toPaymentDetails(after);
  });
}
