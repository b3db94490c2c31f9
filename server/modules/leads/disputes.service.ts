import { eq, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type {
  AdminDisputeList,
  DisputeListQuery,
  DisputeStatus,
} from '../../../contract/lead-detail.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { countRows, keyset, type ListRead, listPage, pageOf } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { joinLeadAndOffer, publisherRefColumns, toPublisherRef } from '../../db/refs.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { leadDisputeMessages, leadDisputes, leads, offers, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { emitEvent } from '../../events/emit.ts';
import { type DisputeMailKind, enqueueDisputeMail } from '../../mail/dispute-mails.ts';
import { appLinks } from '../../notify/links.ts';
import { notifyUser } from '../../notify/notify.ts';
import { type Actor, auditTrail } from '../audit/index.ts';

const auditDispute = auditTrail('lead', 'dispute');

/** The status reason a lead gets when an admin accepts its dispute. */
export const ACCEPTED_REASON = 'Approved after the publisher’s dispute was accepted.';

const lastMessage = sql<string>`(
  select left(m.body, 200) from ${leadDisputeMessages} m
  where m.dispute_id = ${leadDisputes.id} order by m.created_at desc, m.id desc limit 1)`;
const lastAuthor = sql<'publisher' | 'admin'>`(
  select m.author_role from ${leadDisputeMessages} m
  where m.dispute_id = ${leadDisputes.id} order by m.created_at desc, m.id desc limit 1)`;

/** Disputes with their publisher and their lead's offer: these columns and `extra`. */
const selectDisputes = <Extra extends SelectedFields>(db: DbOrTx, extra: Extra) =>
  joinLeadAndOffer(
    db
      .select({
        id: leadDisputes.id,
        leadId: leadDisputes.leadId,
        status: leadDisputes.status,
        ...publisherRefColumns(leadDisputes.publisherId),
        offerTitle: offers.title,
        ...extra,
      })
      .from(leadDisputes)
      .innerJoin(users, eq(users.id, leadDisputes.publisherId))
      .$dynamic(),
    leadDisputes.leadId,
  );

/**
 * Disputes by status (open by default), latest activity first, paged by keyset on the
 * (status, updated_at, id) index. Disputes are few next to leads: the total is exact.
 */
export function listDisputes(opts: ListRead<DisputeListQuery>): Promise<AdminDisputeList> {
  const { db, query } = opts;
  const cond = eq(leadDisputes.status, query.status);
  return listPage({
    query,
    keyset: keyset('updated_at', leadDisputes.updatedAt, 'desc', leadDisputes.id),
    rows: (w) =>
      pageOf(
        selectDisputes(db, {
          leadStatus: leads.status,
          leadPayout: leads.payout,
          lastMessage,
          lastAuthor,
          createdAt: leadDisputes.createdAt,
          updatedAt: leadDisputes.updatedAt,
          sortKey: w.sortKey,
        }),
        cond,
        w,
      ),
    count: () => countRows(db, leadDisputes, cond, 'exact'),
    toItem: (r) => ({
      id: r.id,
      lead_id: r.leadId,
      status: r.status,
      ...toPublisherRef(r),
      offer_title: r.offerTitle,
      lead_status: r.leadStatus,
      lead_payout: toMoney(r.leadPayout),
      last_message: r.lastMessage ?? '',
      last_author: r.lastAuthor ?? 'publisher',
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }),
  });
}

/** The dispute with its lead, publisher and offer, locked for a change. */
async function lockDispute(tx: DbOrTx, id: string) {
  const d = await oneOrNotFound(
    selectDisputes(tx, {
      offerPayout: offers.payout,
      lead: {
        status: leads.status,
        statusReason: leads.statusReason,
        payout: leads.payout,
        timestamp: leads.timestamp,
      },
    })
      .where(eq(leadDisputes.id, id))
      .for('update', { of: [leadDisputes, leads] }),
    'Dispute',
  );
  if (d.status !== 'open') {
    throw new AppError('conflict', `This dispute was already ${d.status}.`);
  }
  return d;
}

type Locked = Awaited<ReturnType<typeof lockDispute>>;

async function addAdminMessage(tx: DbOrTx, actor: Actor, disputeId: string, body: string) {
  await tx
    .insert(leadDisputeMessages)
    .values({ disputeId, authorId: actor.id, authorRole: 'admin', body });
}

async function tellPublisher(
  tx: DbOrTx,
  d: Locked,
  kind: DisputeMailKind,
  message: string | null,
  leadUrl: (id: string) => string,
) {
  await enqueueDisputeMail(tx, d.publisherEmail, {
    kind,
    offerTitle: d.offerTitle,
    publisherName: d.publisherName || d.publisherEmail,
    leadDate: d.lead.timestamp.toISOString().slice(0, 10),
    message,
    url: leadUrl(d.leadId),
  });
  const lead = `the ${d.offerTitle} lead of ${d.lead.timestamp.toISOString().slice(0, 10)}`;
  const said = message ? ` "${excerpt(message)}"` : '';
  const what = {
    admin_reply: {
      kind: 'dispute_answered',
      title: `Reply to your lead dispute: ${d.offerTitle}`,
      body: `The network team replied on your dispute of ${lead}:${said}`,
    },
    accepted: {
      kind: 'dispute_accepted',
      title: `Your lead dispute was accepted: ${d.offerTitle}`,
      body: `Your dispute of ${lead} was accepted: the lead is now approved and payable.${said}`,
    },
    declined: {
      kind: 'dispute_declined',
      title: `Your lead dispute was declined: ${d.offerTitle}`,
      body: `Your dispute of ${lead} was declined.${said}`,
    },
  } as const;
  if (kind === 'opened' || kind === 'publisher_reply') return;
  await notifyUser(tx, d.publisherId, { ...what[kind], link: appLinks.publisherLead(d.leadId) });
}

/** A message as a notification quotes it: one line, at most 200 characters. */
function excerpt(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}

/** The admin's answer in the thread of an open dispute; the publisher gets a mail. */
export async function replyAsAdmin(opts: {
  db: Db;
  actor: Actor;
  disputeId: string;
  message: string;
  leadUrl: (leadId: string) => string;
}): Promise<{ id: string }> {
  return opts.db.transaction(async (tx) => {
    const d = await lockDispute(tx, opts.disputeId);
    await addAdminMessage(tx, opts.actor, d.id, opts.message);
    await tx.update(leadDisputes).set({ updatedAt: sql`now()` }).where(eq(leadDisputes.id, d.id));
    await tellPublisher(tx, d, 'admin_reply', opts.message, opts.leadUrl);
    return { id: d.id };
  });
}

/**
 * Accepts or declines an open dispute in one transaction: accepting approves the lead (a zero
 * payout becomes the offer's), says why in its status reason and marks the status as set by
 * hand, so later tracker events keep it; both are audited on the lead; the publisher gets a mail.
 */
export async function decideDispute(opts: {
  db: Db;
  actor: Actor;
  disputeId: string;
  decision: Extract<DisputeStatus, 'accepted' | 'declined'>;
  message: string | null;
  leadUrl: (leadId: string) => string;
}): Promise<{ id: string; status: DisputeStatus }> {
  const { actor, decision } = opts;
  return opts.db.transaction(async (tx) => {
    const d = await lockDispute(tx, opts.disputeId);
    if (opts.message) await addAdminMessage(tx, actor, d.id, opts.message);
    await tx
      .update(leadDisputes)
      .set({
        status: decision,
        decidedAt: sql`now()`,
        decidedBy: actor.id,
        updatedAt: sql`now()`,
      })
      .where(eq(leadDisputes.id, d.id));
    const before = {
      dispute: 'open',
      status: d.lead.status,
      status_reason: d.lead.statusReason,
      payout: toMoney(d.lead.payout),
    };
    if (decision === 'accepted') {
      const payout = toMoney(d.lead.payout) === 0 ? d.offerPayout : d.lead.payout;
      await tx
        .update(leads)
        .set({
          status: 'approved',
          statusReason: ACCEPTED_REASON,
          payout,
          statusOverriddenAt: sql`now()`,
        })
        .where(eq(leads.id, d.leadId));
      await auditDispute(tx, actor, 'accept', d.leadId, {
        before,
        after: {
          dispute: 'accepted',
          status: 'approved',
          status_reason: ACCEPTED_REASON,
          payout: toMoney(payout),
        },
      });
    } else {
      await auditDispute(tx, actor, 'decline', d.leadId, {
        before: { dispute: 'open' },
        after: { dispute: 'declined' },
      });
    }
    await tellPublisher(tx, d, decision, opts.message, opts.leadUrl);
    await emitEvent(tx, 'dispute.decided', {
      dispute_id: d.id,
      lead_id: d.leadId,
      publisher_id: d.publisherId,
      decision,
      message: opts.message,
    });
    return { id: d.id, status: decision };
  });
}
