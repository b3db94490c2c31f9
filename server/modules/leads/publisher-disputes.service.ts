import { and, eq, sql } from 'drizzle-orm';
import { isDisputableLead } from '../../../contract/lead-detail.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { toMoney } from '../../db/money.ts';
import { joinLeadAndOffer } from '../../db/refs.ts';
import { oneOrNotFound, onUniqueViolation } from '../../db/rows.ts';
import { auditLog, leadDisputeMessages, leadDisputes, leads, offers } from '../../db/schema.ts';
import { AppError, conflict } from '../../errors.ts';
import { emitEvent } from '../../events/emit.ts';
import { disputeMail } from '../../mail/dispute-mails.ts';
import { getMailBrand } from '../../mail/templates.ts';
import { appLinks } from '../../notify/links.ts';
import { notifyAdmins } from '../../notify/notify.ts';

/** A message as a notification quotes it: one line, at most 200 characters. */
const excerpt = (s: string) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
};

/** The publisher as a dispute names them. */
export type DisputingPublisher = { id: string; email: string; name: string | null };

const alreadyOpen = () =>
  conflict('This lead already has an open dispute. Add a message to it instead.');

/** The publisher's own lead with its offer, locked; another publisher's lead is not found. */
async function ownLead(tx: DbOrTx, publisherId: string, leadId: string, lock: boolean) {
  const q = tx
    .select({
      id: leads.id,
      status: leads.status,
      payout: leads.payout,
      timestamp: leads.timestamp,
      offerTitle: offers.title,
    })
    .from(leads)
    .innerJoin(offers, eq(offers.id, leads.offerId))
    .where(and(eq(leads.id, leadId), eq(leads.publisherId, publisherId)));
  return oneOrNotFound(lock ? q.for('update', { of: leads }) : q, 'Lead');
}

/**
 * Checked before a file is stored: the lead is the publisher's, disputable, and has no open
 * dispute (the insert checks again under the unique index).
 */
export async function assertCanDispute(opts: {
  db: DbOrTx;
  publisherId: string;
  leadId: string;
}): Promise<void> {
  const lead = await ownLead(opts.db, opts.publisherId, opts.leadId, false);
  if (!isDisputableLead({ status: lead.status, payout: toMoney(lead.payout) })) {
    throw conflict('This lead is approved and paid: there is nothing to dispute.');
  }
  const [open] = await opts.db
    .select({ id: leadDisputes.id })
    .from(leadDisputes)
    .where(and(eq(leadDisputes.leadId, opts.leadId), eq(leadDisputes.status, 'open')));
  if (open) throw alreadyOpen();
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Opens a dispute on the publisher's rejected or unpaid lead, with the first message (and its
 * file), audited on the lead, and tells the admins, all in one transaction.
 */
export async function openDispute(opts: {
  db: Db;
  publisher: DisputingPublisher;
  leadId: string;
  message: string;
  fileKey: string | null;
  leadUrl: string;
  publicUrl: string;
}): Promise<{ id: string }> {
  const { publisher } = opts;
  // Two disputes sent at once: the unique index lets one through.
  return onUniqueViolation(
    () =>
      opts.db.transaction(async (tx) => {
        const lead = await ownLead(tx, publisher.id, opts.leadId, true);
        if (!isDisputableLead({ status: lead.status, payout: toMoney(lead.payout) })) {
          throw conflict('This lead is approved and paid: there is nothing to dispute.');
        }
        const [dispute] = await tx
          .insert(leadDisputes)
          .values({ leadId: lead.id, publisherId: publisher.id })
          .returning({ id: leadDisputes.id });
        await tx.insert(leadDisputeMessages).values({
          disputeId: dispute!.id,
          authorId: publisher.id,
          authorRole: 'publisher',
          body: opts.message,
          fileKey: opts.fileKey,
        });
        await tx.insert(auditLog).values({
          actorId: publisher.id,
          actorEmail: publisher.email,
          action: 'dispute.open',
          entityType: 'lead',
          entityId: lead.id,
          before: { dispute: null },
          after: { dispute: 'open' },
        });
        const who = publisher.name || publisher.email;
        await notifyAdmins(tx, {
          kind: 'dispute_opened',
          title: `New lead dispute from ${who}: ${lead.offerTitle}`,
          body: `${who} disputes the ${lead.offerTitle} lead of ${dayOf(lead.timestamp)}: "${excerpt(opts.message)}"`,
          link: appLinks.adminLead(lead.id),
          publicUrl: opts.publicUrl,
          mail: disputeMail(await getMailBrand(tx), {
            kind: 'opened',
            offerTitle: lead.offerTitle,
            publisherName: who,
            leadDate: dayOf(lead.timestamp),
            message: opts.message,
            url: opts.leadUrl,
          }),
        });
        await emitEvent(tx, 'lead.disputed', {
          dispute_id: dispute!.id,
          lead_id: lead.id,
          publisher_id: publisher.id,
          message: opts.message,
        });
        return { id: dispute!.id };
      }),
    alreadyOpen,
  );
}

/** The publisher's reply on their own open dispute; the admins get a mail. */
export async function replyAsPublisher(opts: {
  db: Db;
  publisher: DisputingPublisher;
  disputeId: string;
  message: string;
  leadUrl: (leadId: string) => string;
  publicUrl: string;
}): Promise<{ id: string }> {
  const { publisher } = opts;
  return opts.db.transaction(async (tx) => {
    const d = await oneOrNotFound(
      joinLeadAndOffer(
        tx
          .select({
            id: leadDisputes.id,
            leadId: leadDisputes.leadId,
            status: leadDisputes.status,
            timestamp: leads.timestamp,
            offerTitle: offers.title,
          })
          .from(leadDisputes)
          .$dynamic(),
        leadDisputes.leadId,
      )
        .where(and(eq(leadDisputes.id, opts.disputeId), eq(leadDisputes.publisherId, publisher.id)))
        .for('update', { of: leadDisputes }),
      'Dispute',
    );
    if (d.status !== 'open') {
      throw new AppError('conflict', 'This dispute is closed: it was already decided.');
    }
    const [m] = await tx
      .insert(leadDisputeMessages)
      .values({
        disputeId: d.id,
        authorId: publisher.id,
        authorRole: 'publisher',
        body: opts.message,
      })
      .returning({ id: leadDisputeMessages.id });
    await tx.update(leadDisputes).set({ updatedAt: sql`now()` }).where(eq(leadDisputes.id, d.id));
    const who = publisher.name || publisher.email;
    await notifyAdmins(tx, {
      kind: 'dispute_reply',
      title: `${who} replied to a lead dispute: ${d.offerTitle}`,
      body: `${who} replied on the dispute of the ${d.offerTitle} lead of ${dayOf(d.timestamp)}: "${excerpt(opts.message)}"`,
      link: appLinks.adminLead(d.leadId),
      publicUrl: opts.publicUrl,
      mail: disputeMail(await getMailBrand(tx), {
        kind: 'publisher_reply',
        offerTitle: d.offerTitle,
        publisherName: who,
        leadDate: dayOf(d.timestamp),
        message: opts.message,
        url: opts.leadUrl(d.leadId),
      }),
    });
    return { id: m!.id };
  });
}
