import { and, desc, eq, gte, max, sql } from 'drizzle-orm';
import type {
  AdminOfferScript,
  PendingScripts,
  PublisherOfferScript,
} from '../../../contract/scripts.ts';
import type { Actor } from '../../auth/guard.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { publisherRefColumns } from '../../db/refs.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import {
  offerScriptAcknowledgements as acks,
  offerApplications,
  offers,
  users,
  offerScriptVersions as versions,
} from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { writeAudit } from '../audit/index.ts';
import { diffCounts, lineDiff } from './script-diff.ts';
import { scriptVersionMail } from './script-mails.ts';

const DAY_MS = 86_400_000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const dueOf = (published: Date, days: number) => new Date(published.getTime() + days * DAY_MS);

/** Publishers whose application to the offer is approved: the readers of its script. */
const approvedFor = (offerId: string) =>
  and(eq(offerApplications.offerId, offerId), eq(offerApplications.status, 'approved'));

/**
 * A new version of an offer's script (issue 33), in the offer's transaction: the version row
 * (who, when, the text), the offer's current version, the audit entry on the offer, and for
 * each publisher approved for the offer an entry in their History and an e-mail.
 * Nothing happens when the text did not change (null and '' are the same: no script).
 */
export async function recordScriptVersion(
  tx: DbOrTx,
  opts: {
    offer: { id: string; title: string; scriptVersion: number | null; scriptAckDays: number };
    before: string | null;
    after: string | null;
    actor: Actor;
    /** The portal's address, for the e-mail's link. */
    publicUrl: string;
    /** The offer is being created (its audit entry says it all). */
    created?: boolean;
  },
): Promise<number | null> {
  const { offer, actor } = opts;
  const before = opts.before ?? '';
  const after = opts.after ?? '';
  if (before === after) return offer.scriptVersion;
  const version = (offer.scriptVersion ?? 0) + 1;
  await tx.insert(versions).values({
    offerId: offer.id,
    version,
    body: after,
    createdBy: actor.id,
    createdByEmail: actor.email,
  });
  await tx.update(offers).set({ scriptVersion: version }).where(eq(offers.id, offer.id));
  const counts = diffCounts(lineDiff(before, after));
  const change = { offer_id: offer.id, offer_title: offer.title, version, ...counts };
  // A new offer's first version is in its `offer.create` entry; nobody is approved for it yet.
  if (opts.before === null && offer.scriptVersion === null && opts.created) return version;
  await writeAudit(tx, {
    actor,
    action: 'offer.script_version',
    entityType: 'offer',
    entityId: offer.id,
    before: offer.scriptVersion === null ? null : { version: offer.scriptVersion },
    after: change,
  });
  const readers = await tx
    .select({ id: users.id, email: users.email, name: users.name })
    .from(offerApplications)
    .innerJoin(users, eq(users.id, offerApplications.publisherId))
    .where(approvedFor(offer.id));
  if (!readers.length) return version;
  const offersUrl = `${opts.publicUrl}/dashboard/offers`;
  for (const p of readers) {
    await writeAudit(tx, {
      actor,
      action: 'publisher.script_version',
      entityType: 'publisher',
      entityId: p.id,
      before: null,
      after: change,
    });
    const mail = await scriptVersionMail(tx, {
      name: p.name,
      offerTitle: offer.title,
      version,
      ...counts,
      dueDays: offer.scriptAckDays,
      offersUrl,
    });
    await enqueueMail(tx, { to: p.email, ...mail });
  }
  return version;
}

/** The offer's versions (newest first), its approved publishers and who acknowledged what. */
export async function getAdminOfferScript(opts: {
  db: DbOrTx;
  offerId: string;
}): Promise<AdminOfferScript> {
  const { db, offerId } = opts;
  const offer = await oneOrNotFound(
    db.select().from(offers).where(eq(offers.id, offerId)),
    'Offer',
  );
  const rows = await db
    .select()
    .from(versions)
    .where(eq(versions.offerId, offerId))
    .orderBy(versions.version);
  const history = rows.map((v, i) => {
    const diff = lineDiff(rows[i - 1]?.body ?? '', v.body);
    return {
      version: v.version,
      body: v.body,
      created_at: v.createdAt.toISOString(),
      created_by_email: v.createdByEmail,
      ...diffCounts(diff),
      diff,
    };
  });
  const latest = db
    .select({
      publisherId: acks.publisherId,
      version: max(acks.version).as('version'),
      at: max(acks.acknowledgedAt).as('at'),
    })
    .from(acks)
    .where(eq(acks.offerId, offerId))
    .groupBy(acks.publisherId)
    .as('latest');
  const publishers = await db
    .select({
      ...publisherRefColumns(offerApplications.publisherId),
      version: latest.version,
      at: latest.at,
    })
    .from(offerApplications)
    .innerJoin(users, eq(users.id, offerApplications.publisherId))
    .leftJoin(latest, eq(latest.publisherId, users.id))
    .where(approvedFor(offerId))
    .orderBy(users.email);
  const all = await db
    .select({
      publisherId: acks.publisherId,
      email: users.email,
      version: acks.version,
      at: acks.acknowledgedAt,
    })
    .from(acks)
    .innerJoin(users, eq(users.id, acks.publisherId))
    .where(eq(acks.offerId, offerId))
    .orderBy(desc(acks.acknowledgedAt))
    .limit(500);
  return {
    offer_id: offer.id,
    current_version: offer.scriptVersion,
    ack_mode: offer.scriptAckMode,
    ack_days: offer.scriptAckDays,
    versions: history.reverse(),
    publishers: publishers.map((p) => ({
      publisher_id: p.publisherId,
      name: p.publisherName,
      email: p.publisherEmail,
      acknowledged_version: p.version ?? null,
      acknowledged_at: p.at ? new Date(p.at).toISOString() : null,
      current: offer.scriptVersion !== null && (p.version ?? 0) >= offer.scriptVersion,
    })),
    acknowledgements: all.map((a) => ({
      publisher_id: a.publisherId,
      email: a.email,
      version: a.version,
      acknowledged_at: a.at.toISOString(),
    })),
  };
}

/** The offer as its approved publisher reads the script; 404 for anyone else. */
async function offerForReader(db: DbOrTx, publisherId: string, offerId: string) {
  const [row] = await db
    .select({
      id: offers.id,
      title: offers.title,
      version: offers.scriptVersion,
      mode: offers.scriptAckMode,
      days: offers.scriptAckDays,
    })
    .from(offers)
    .innerJoin(
      offerApplications,
      and(approvedFor(offerId), eq(offerApplications.publisherId, publisherId)),
    )
    .where(eq(offers.id, offerId));
  if (!row) throw notFound('Offer');
  return row;
}

/** The latest version this publisher acknowledged on the offer, and when. */
async function lastAck(db: DbOrTx, publisherId: string, offerId: string) {
  const [row] = await db
    .select({ version: acks.version, at: acks.acknowledgedAt })
    .from(acks)
    .where(and(eq(acks.offerId, offerId), eq(acks.publisherId, publisherId)))
    .orderBy(desc(acks.version))
    .limit(1);
  return row ?? null;
}

const bodyOf = async (db: DbOrTx, offerId: string, version: number | null | undefined) => {
  if (!version) return null;
  const [row] = await db
    .select({ body: versions.body, at: versions.createdAt })
    .from(versions)
    .where(and(eq(versions.offerId, offerId), eq(versions.version, version)));
  return row ?? null;
};

/** The current script, the diff since the publisher's last acknowledged version, what is due. */
export async function getPublisherOfferScript(opts: {
  db: DbOrTx;
  publisherId: string;
  offerId: string;
}): Promise<PublisherOfferScript> {
  const { db, publisherId, offerId } = opts;
  const offer = await offerForReader(db, publisherId, offerId);
  const ack = await lastAck(db, publisherId, offerId);
  const current = await bodyOf(db, offerId, offer.version);
  const needs = offer.version !== null && (ack?.version ?? 0) < offer.version;
  const read = needs ? await bodyOf(db, offerId, ack?.version) : current;
  return {
    offer_id: offer.id,
    offer_title: offer.title,
    version: offer.version,
    body: current?.body ?? '',
    published_at: iso(current?.at ?? null),
    acknowledged_version: ack?.version ?? null,
    acknowledged_at: iso(ack?.at ?? null),
    needs_acknowledgement: needs,
    due_at: needs && current ? dueOf(current.at, offer.days).toISOString() : null,
    ack_mode: offer.mode,
    diff: lineDiff(read?.body ?? '', current?.body ?? ''),
  };
}

/**
 * The publisher acknowledges the current version (issue 33): only the current one (an older
 * version is a 409 saying which is current), once (again is a no-op), and only on an offer they
 * are approved for (404 otherwise). Written to the audit log and the publisher's History.
 */
export async function acknowledgeScript(opts: {
  db: Db;
  publisher: Actor;
  offerId: string;
  version: number;
}): Promise<PublisherOfferScript> {
  const { publisher, offerId, version } = opts;
  await opts.db.transaction(async (tx) => {
    // The offer's row, locked against a new version being saved meanwhile.
    await tx.select({ id: offers.id }).from(offers).where(eq(offers.id, offerId)).for('share');
    const offer = await offerForReader(tx, publisher.id, offerId);
    if (offer.version === null) throw conflict('This offer has no script to acknowledge.');
    if (version !== offer.version) {
      throw new AppError(
        'script_version_not_current',
        `Version ${version} is not the current script: version ${offer.version} is. Read it and acknowledge that one.`,
        { status: 409 },
      );
    }
    const added = await tx
      .insert(acks)
      .values({ offerId, publisherId: publisher.id, version })
      .onConflictDoNothing()
      .returning({ at: acks.acknowledgedAt });
    if (!added.length) return;
    await writeAudit(tx, {
      actor: publisher,
      action: 'publisher.script_acknowledged',
      entityType: 'publisher',
      entityId: publisher.id,
      before: null,
      after: { offer_id: offerId, offer_title: offer.title, version },
    });
  });
  return getPublisherOfferScript({ db: opts.db, publisherId: publisher.id, offerId });
}

/** The publisher's approved offers whose current script they have not acknowledged. */
export async function listPendingScripts(opts: {
  db: DbOrTx;
  publisherId: string;
}): Promise<PendingScripts> {
  const { db, publisherId } = opts;
  const rows = await db
    .select({
      id: offers.id,
      title: offers.title,
      version: versions.version,
      at: versions.createdAt,
      days: offers.scriptAckDays,
    })
    .from(offerApplications)
    .innerJoin(offers, eq(offers.id, offerApplications.offerId))
    .innerJoin(
      versions,
      and(eq(versions.offerId, offers.id), eq(versions.version, offers.scriptVersion)),
    )
    .where(
      and(
        eq(offerApplications.publisherId, publisherId),
        eq(offerApplications.status, 'approved'),
        sql`not exists (${db
          .select({ one: sql`1` })
          .from(acks)
          .where(
            and(
              eq(acks.offerId, offers.id),
              eq(acks.publisherId, publisherId),
              gte(acks.version, offers.scriptVersion),
            ),
          )})`,
      ),
    )
    .orderBy(versions.createdAt);
  return {
    items: rows.map((r) => ({
      offer_id: r.id,
      offer_title: r.title,
      version: r.version,
      published_at: r.at.toISOString(),
      due_at: dueOf(r.at, r.days).toISOString(),
    })),
  };
}
