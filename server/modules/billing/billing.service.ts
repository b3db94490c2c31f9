import { and, desc, eq, sql } from 'drizzle-orm';
import type {
  BuyerBilling,
  BuyerDeposit,
  BuyerInvoice,
  DepositBody,
  SetBillingModeBody,
} from '../../../contract/buyer-billing.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { amountCents, centsMoney } from '../../db/money.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { buyerBilling, buyerDeposits, buyerInvoices, users } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { type AdminEdit, writeAudit } from '../audit/index.ts';

/**
 * A buyer's billing (issue 31, item 6). The balance is kept in `buyer_billing.balance_cents`:
 * a deposit and an accepted return add to it in the same transaction, and the billing trigger
 * (drizzle/0043) draws every billed call from it, refusing (not billing) a prepaid buyer's call
 * it cannot pay, so it is read, never summed from the leads.
 */

type InvoiceRow = typeof buyerInvoices.$inferSelect;

export const toInvoice = (r: InvoiceRow): BuyerInvoice => ({
  id: r.id,
  month: r.month.slice(0, 7),
  currency: r.currency,
  time_zone: r.timeZone,
  total: centsMoney(r.totalCents),
  created_at: r.createdAt.toISOString(),
});

/** The buyer (role buyer) or a 404. */
async function buyerOrNotFound(db: DbOrTx, id: string) {
  return oneOrNotFound(
    db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(eq(users.id, id), eq(users.role, 'buyer'))),
    'Buyer',
  );
}

/** The buyer's mode, balance, last deposits and invoices (one row and two short index reads). */
export async function getBuyerBilling(db: DbOrTx, buyerId: string): Promise<BuyerBilling> {
  const [row] = await db.select().from(buyerBilling).where(eq(buyerBilling.buyerId, buyerId));
  const deposits = await db
    .select()
    .from(buyerDeposits)
    .where(eq(buyerDeposits.buyerId, buyerId))
    .orderBy(desc(buyerDeposits.createdAt))
    .limit(50);
  const invoices = await db
    .select()
    .from(buyerInvoices)
    .where(eq(buyerInvoices.buyerId, buyerId))
    .orderBy(desc(buyerInvoices.month))
    .limit(24);
  const { currency } = await getSettings(db);
  return {
    buyer_id: buyerId,
    mode: row?.mode ?? 'postpaid',
    balance: centsMoney(row?.balanceCents ?? 0n),
    currency,
    deposits: deposits.map(
      (d): BuyerDeposit => ({
        id: d.id,
        amount: centsMoney(d.amountCents),
        note: d.note,
        created_at: d.createdAt.toISOString(),
      }),
    ),
    invoices: invoices.map(toInvoice),
  };
}

/** The admin's view of one buyer's billing (an unknown buyer is a 404). */
export async function adminBuyerBilling(opts: { db: Db; id: string }): Promise<BuyerBilling> {
  await buyerOrNotFound(opts.db, opts.id);
  return getBuyerBilling(opts.db, opts.id);
}

/**
 * Adds to a buyer's balance (a deposit, an accepted return's credit) in the caller's
 * transaction; when it is positive again, the campaigns the balance paused resume.
 */
export async function creditBuyer(tx: DbOrTx, buyerId: string, cents: bigint): Promise<bigint> {
  // Campaign rows before the balance row, the order billing takes them in (drizzle/0046), so a
  // deposit and a batch of calls never wait for each other in a circle.
  await tx.execute(
    sql`select 1 from campaigns where buyer_id = ${buyerId}::uuid order by id for update`,
  );
  const [row] = await tx
    .insert(buyerBilling)
    .values({ buyerId, balanceCents: cents })
    .onConflictDoUpdate({
      target: buyerBilling.buyerId,
      set: { balanceCents: sql`${buyerBilling.balanceCents} + ${cents}`, updatedAt: new Date() },
    })
    .returning({ balance: buyerBilling.balanceCents });
  const balance = row!.balance;
  if (balance > 0n) await resumeBalancePaused(tx, buyerId);
  return balance;
}

/** The buyer's campaigns the balance paused, active again (money came in, or now postpaid). */
async function resumeBalancePaused(tx: DbOrTx, buyerId: string): Promise<void> {
  await tx.execute(sql`
    update campaigns set status = 'active', paused_by = null, paused_at = null, status_reason = null
     where buyer_id = ${buyerId}::uuid and status = 'paused' and paused_by = 'balance'`);
}

/** An admin records a prepaid buyer's deposit: balance up, audited, balance-paused campaigns resume. */
export async function recordDeposit(opts: AdminEdit<DepositBody>): Promise<BuyerBilling> {
  await opts.db.transaction(async (tx) => {
    await buyerOrNotFound(tx, opts.id);
    const cents = amountCents(opts.input.amount);
    const [dep] = await tx
      .insert(buyerDeposits)
      .values({
        buyerId: opts.id,
        amountCents: cents,
        note: opts.input.note || null,
        createdBy: opts.actor.id,
      })
      .returning({ id: buyerDeposits.id });
    const balance = await creditBuyer(tx, opts.id, cents);
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'buyer.deposit',
      entityType: 'buyer',
      entityId: opts.id,
      before: null,
      after: { deposit_id: dep!.id, amount: opts.input.amount, balance: centsMoney(balance) },
    });
  });
  return getBuyerBilling(opts.db, opts.id);
}

/**
 * An admin sets a buyer's billing mode, audited. Prepaid with nothing left pauses the buyer's
 * active campaigns at once (as the trigger would at the next call); postpaid resumes those the
 * balance paused.
 */
export async function setBillingMode(opts: AdminEdit<SetBillingModeBody>): Promise<BuyerBilling> {
  await opts.db.transaction(async (tx) => {
    await buyerOrNotFound(tx, opts.id);
    const [before] = await tx
      .select({ mode: buyerBilling.mode })
      .from(buyerBilling)
      .where(eq(buyerBilling.buyerId, opts.id))
      .for('update');
    const [row] = await tx
      .insert(buyerBilling)
      .values({ buyerId: opts.id, mode: opts.input.mode })
      .onConflictDoUpdate({
        target: buyerBilling.buyerId,
        set: { mode: opts.input.mode, updatedAt: new Date() },
      })
      .returning({ balance: buyerBilling.balanceCents });
    if (opts.input.mode === 'prepaid' && row!.balance <= 0n) {
      await tx.execute(sql`select buyer_pause_campaigns(${opts.id}::uuid)`);
    } else if (opts.input.mode === 'postpaid') {
      await resumeBalancePaused(tx, opts.id);
    }
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'buyer.billing_mode',
      entityType: 'buyer',
      entityId: opts.id,
      before: { mode: before?.mode ?? 'postpaid' },
      after: { mode: opts.input.mode },
    });
  });
  return getBuyerBilling(opts.db, opts.id);
}
