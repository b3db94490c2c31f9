import { and, eq, inArray } from 'drizzle-orm';
import type { PaymentDetails, UpdatePaymentDetails } from '../../../contract/money.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { auditLog, paymentDetails, users } from '../../db/schema.ts';
import { renderMail } from '../../mail/layout.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { getMailBrand } from '../../mail/templates.ts';

/** How each publisher is paid (issue 14, structured for the processors' files in issue 27). */

export const NO_DETAILS: PaymentDetails = {
  method: null,
  account: null,
  tax_form_status: 'not_submitted',
  updated_at: null,
};

export function toPaymentDetails(
  row: typeof paymentDetails.$inferSelect | null | undefined,
): PaymentDetails {
  if (!row) return NO_DETAILS;
  return {
    method: row.method,
    account: row.account,
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

const METHOD_TEXT: Record<string, string> = {
  bank_transfer: 'Bank transfer',
  paypal: 'PayPal',
  wise: 'Wise',
  check: 'Check',
  other: 'Other',
};

/**
 * The publisher sets how they are paid: saved, audited (before → after) and told to every
 * active admin by mail, in one transaction.
 */
export async function updatePaymentDetails(opts: {
  db: Db;
  publisher: { id: string; email: string; name: string | null };
  input: UpdatePaymentDetails;
  adminUrl: string;
}): Promise<PaymentDetails> {
  const { publisher, input } = opts;
  return opts.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(paymentDetails)
      .where(eq(paymentDetails.publisherId, publisher.id))
      .for('update');
    const [after] = await tx
      .insert(paymentDetails)
      .values({
        publisherId: publisher.id,
        method: input.method,
        account: input.account,
        taxFormStatus: input.tax_form_status,
      })
      .onConflictDoUpdate({
        target: paymentDetails.publisherId,
        set: {
          method: input.method,
          account: input.account,
          taxFormStatus: input.tax_form_status,
          updatedAt: new Date(),
        },
      })
      .returning();
    const view = (r: typeof before) =>
      r ? { method: r.method, account: r.account, tax_form_status: r.taxFormStatus } : null;
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
          `Method: ${METHOD_TEXT[input.method]}. Account or reference: ${input.account}. Tax form: ${input.tax_form_status.replace('_', ' ')}.`,
          before?.method
            ? `Before: ${METHOD_TEXT[before.method]}, ${before.account}, tax form ${before.taxFormStatus.replace('_', ' ')}.`
            : 'They had no payment details before.',
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
