import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type {
  BalanceList,
  BalanceListQuery,
  PaymentDetails,
  UpdatePaymentDetails,
} from '../../../contract/money.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { exactCount, keysetOf, listPage, searchAny } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { auditLog, paymentDetails, publisherBalances, users } from '../../db/schema.ts';
import { renderMail } from '../../mail/layout.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { getMailBrand } from '../../mail/templates.ts';
import {
  cents,
  centsMoney,
  ledgerSettings,
  paymentDetailsOf,
  pendingReviewOf,
  toPaymentDetails,
} from './ledger.service.ts';

const sortColumns = {
  owed: publisherBalances.owed,
  earned: sql`(${publisherBalances.earned} + ${publisherBalances.adjustments})`,
  paid: publisherBalances.paid,
  name: sql`lower(coalesce(${users.name}, ${users.email}))`,
};

/**
 * Admin → Payouts → Balances: every publisher with a balance row, largest owed first, paged by
 * keyset over the maintained `publisher_balances` (owed has its own index); the publishers are
 * counted exactly (one row per publisher: a small table).
 */
export async function listBalances(opts: {
  db: DbOrTx;
  query: BalanceListQuery;
}): Promise<BalanceList> {
  const { db, query } = opts;
  const settings = await ledgerSettings(db);
  const cond: SQL | undefined = and(
    eq(users.role, 'publisher'),
    sql`(${publisherBalances.owed} <> 0 or ${publisherBalances.paid} <> 0 or ${publisherBalances.earned} <> 0)`,
    query.above_threshold === 'true'
      ? and(
          sql`${publisherBalances.owed} > 0`,
          sql`${publisherBalances.owed} >= ${settings.minPayout}::numeric`,
        )
      : undefined,
    searchAny(query.q, users.name, users.email),
  );
  const page = await listPage({
    query,
    keyset: keysetOf(sortColumns, query, publisherBalances.publisherId),
    rows: (w) =>
      db
        .select({
          id: publisherBalances.publisherId,
          earned: publisherBalances.earned,
          adjustments: publisherBalances.adjustments,
          paid: publisherBalances.paid,
          owed: publisherBalances.owed,
          name: users.name,
          email: users.email,
          status: users.status,
          sortKey: w.sortKey,
        })
        .from(publisherBalances)
        .innerJoin(users, eq(users.id, publisherBalances.publisherId))
        .where(and(cond, w.after))
        .orderBy(...w.orderBy)
        .limit(w.limit)
        .offset(w.offset),
    count: () =>
      exactCount(
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(publisherBalances)
          .innerJoin(users, eq(users.id, publisherBalances.publisherId))
          .where(cond),
      ),
    toItem: (r) => r,
  });
  const ids = page.items.map((r) => r.id);
  const [pending, payment] = await Promise.all([
    pendingReviewOf(db, ids),
    paymentDetailsOf(db, ids),
  ]);
  return {
    ...page,
    items: page.items.map((r) => ({
      publisher_id: r.id,
      publisher_name: r.name,
      publisher_email: r.email,
      publisher_status: r.status,
      earned: centsMoney(cents(r.earned) + cents(r.adjustments)),
      pending_review: toMoney(pending.get(r.id) ?? '0'),
      paid: toMoney(r.paid),
      owed: toMoney(r.owed),
      payment: payment.get(r.id) ?? toPaymentDetails(null),
    })),
    currency: settings.currency,
    min_payout: toMoney(settings.minPayout),
  };
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
