import { and, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type * as admin from '../../../contract/admin.ts';
import {
  describeReason,
  publisherBlockReasons,
  publisherReasons,
  publisherRejectReasons,
  reasonNotAllowed,
} from '../../../contract/review-reasons.ts';
import {
  approvedPublisherStatuses,
  type BuyerStatus,
  type PublisherStatus,
} from '../../../contract/roles.ts';
import { endAllSessions } from '../../auth/sessions.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { ListRead } from '../../db/list-query.ts';
import { countRows, keyset, keysetOf, listPage, pageOf, searchAny } from '../../db/list-query.ts';
import { oneOrNotFound, type RecordRead } from '../../db/rows.ts';
import { mfaFactors, offerApplications, offers, users } from '../../db/schema.ts';
import { badRequest, conflict } from '../../errors.ts';
import { emitEvent } from '../../events/emit.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { getMailBrand, publisherApprovedMail, publisherBlockedMail } from '../../mail/templates.ts';
import { appLinks } from '../../notify/links.ts';
import { notifyUser } from '../../notify/notify.ts';
import { type FileLinker, linkOrNull } from '../../storage/file-links.ts';
import {
  type Actor,
  type AdminAction,
  type AdminEdit,
  type AdminWrite,
  auditTrail,
  recentAuditFor,
  writeAudit,
} from '../audit/index.ts';
import { publisherLeadTotals } from '../leads/index.ts';
import { balanceOf } from '../money/index.ts';
import { buyerTransition, type PublisherAction, publisherTransition } from './users.policy.ts';

const auditPublisher = auditTrail('publisher');

type UserRow = typeof users.$inferSelect;

/** A publisher as the admin API answers it: no password hash, the agreement as a flag. */
export function toAdminPublisher(u: UserRow): admin.AdminPublisher {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    status: u.status,
    business_legal_name: u.businessLegalName,
    phone_number: u.phoneNumber,
    whatsapp_number: u.whatsappNumber,
    ms_teams_id: u.msTeamsId,
    address: u.address,
    has_agreement: u.marketingAgreementUrl !== null,
    created_at: u.createdAt.toISOString(),
  };
}

/** How many verified authenticator apps a user has (two-factor sign-in, issue 17). */
// Qualified by hand: Drizzle writes the columns of a one-table select without their table.
const twoFactorApps = sql<number>`(select count(*)::int from ${mfaFactors} f where f.user_id = "users"."id" and f.status = 'verified')`;

async function twoFactorAppsOf(db: DbOrTx, id: string): Promise<number> {
  const [row] = await db.select({ n: twoFactorApps }).from(users).where(eq(users.id, id));
  return Number(row?.n ?? 0);
}

function toAdminBuyer(u: UserRow & { twoFactorApps: number }): admin.AdminBuyer {
  return {
    two_factor_apps: Number(u.twoFactorApps),
    id: u.id,
    email: u.email,
    name: u.name,
    company_name: u.businessLegalName,
    status: u.status === 'blocked' ? 'blocked' : 'active',
    email_confirmed: u.emailConfirmedAt !== null,
    created_at: u.createdAt.toISOString(),
  };
}

const userSortColumns = {
  created_at: users.createdAt,
  name: users.name,
  email: users.email,
  status: users.status,
} as const;

const searchUsers = (q: string | undefined) => searchAny(q, users.name, users.email);

/** The legacy publisher status `active` displays as Approved, so the Approved filter finds both. */
function statusFilter(role: 'publisher' | 'buyer', status: string | undefined): SQL | undefined {
  if (!status) return undefined;
  if (role === 'publisher' && status === 'approved') {
    return inArray(users.status, approvedPublisherStatuses);
  }
  return eq(users.status, status as PublisherStatus);
}

function listUsers<Item>(
  db: DbOrTx,
  role: 'publisher' | 'buyer',
  query: admin.PublisherListQuery | admin.BuyerListQuery,
  toItem: (row: UserRow & { twoFactorApps: number }) => Item,
) {
  const cond = and(eq(users.role, role), statusFilter(role, query.status), searchUsers(query.q));
  // Exact total: a role's users are thousands, not millions (an index-only count, ~ms).
  return listPage({
    query,
    keyset: keysetOf(userSortColumns, query, users.id),
    rows: (w) =>
      pageOf(
        db
          .select({ ...getTableColumns(users), twoFactorApps, sortKey: w.sortKey })
          .from(users)
          .$dynamic(),
        cond,
        w,
      ),
    count: () => countRows(db, users, cond, 'exact'),
    toItem,
  });
}

/** Publishers, newest first unless sorted otherwise; `q` searches name and e-mail. */
export function listPublishers(
  opts: ListRead<admin.PublisherListQuery>,
): Promise<admin.PublisherList> {
  return listUsers(opts.db, 'publisher', opts.query, toAdminPublisher);
}

/** Buyers, newest first unless sorted otherwise; `q` searches name and e-mail. */
export function listBuyers(opts: {
  db: DbOrTx;
  query: admin.BuyerListQuery;
}): Promise<admin.BuyerList> {
  return listUsers(opts.db, 'buyer', opts.query, toAdminBuyer);
}

/** A user row of `role` by id (locked with `lock`); 404 for anyone of another role. */
function findWithRole(db: DbOrTx, id: string, role: 'publisher' | 'buyer', lock: boolean) {
  const q = db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, role)));
  return oneOrNotFound(lock ? q.for('update') : q, role === 'buyer' ? 'Buyer' : 'Publisher');
}

/** A publisher row by id; 404 for anything that is not a publisher. */
export function findPublisher(db: DbOrTx, id: string, lock = false): Promise<UserRow> {
  return findWithRole(db, id, 'publisher', lock);
}

/** Everything the publisher detail screen shows: profile, agreement, applications, history. */
export async function getPublisherDetail(
  opts: RecordRead & { link: FileLinker },
): Promise<admin.PublisherDetail> {
  const { db, id, link } = opts;
  const publisher = await findPublisher(db, id);
  const [apps, leadTotals, balance, audit, factors] = await Promise.all([
    db
      .select({
        id: offerApplications.id,
        offerId: offerApplications.offerId,
        offerTitle: offers.title,
        status: offerApplications.status,
        createdAt: offerApplications.createdAt,
        io: offerApplications.ioDocumentUrl,
      })
      .from(offerApplications)
      .innerJoin(offers, eq(offers.id, offerApplications.offerId))
      .where(
        and(
          eq(offerApplications.publisherId, id),
          inArray(offerApplications.status, ['pending', 'approved', 'rejected']),
        ),
      )
      .orderBy(sql`${offerApplications.createdAt} desc`),
    // The maintained totals (server/modules/leads/lead-totals.ts), not a scan of the publisher's leads.
    publisherLeadTotals(db, id),
    balanceOf(db, id),
    recentAuditFor({ db, entityType: 'publisher', entityId: id }),
    twoFactorAppsOf(db, id),
  ]);
  return {
    publisher: toAdminPublisher(publisher),
    agreement: await linkOrNull(link, publisher.marketingAgreementUrl),
    applications: await Promise.all(
      apps.map(async (a) => ({
        id: a.id,
        offer_id: a.offerId,
        offer_title: a.offerTitle,
        status: a.status as 'pending' | 'approved' | 'rejected',
        created_at: a.createdAt.toISOString(),
        io: await linkOrNull(link, a.io),
      })),
    ),
    totals: { leads: leadTotals.leads, ...balance },
    audit,
    two_factor_apps: factors,
  };
}

/**
 * The part every allowed status change shares: the new status, every session ended when it is a
 * block, and the audit entry (`publisher.approve`, `buyer.block`…) with the status before and after.
 */
async function writeStatusChange(
  tx: Tx,
  change: {
    actor: Actor;
    entityType: 'publisher' | 'buyer';
    before: UserRow;
    status: UserRow['status'];
    action: string;
    /** The reviewer's reason (rejecting or blocking a publisher), kept in the audit entry. */
    reason?: { reason: string; note: string | null } | undefined;
  },
): Promise<UserRow> {
  const { before } = change;
  const [after] = await tx
    .update(users)
    .set({ status: change.status, updatedAt: new Date() })
    .where(eq(users.id, before.id))
    .returning();
  if (change.status === 'blocked') await endAllSessions(tx, before.id);
  await writeAudit(tx, {
    actor: change.actor,
    action: `${change.entityType}.${change.action}`,
    entityType: change.entityType,
    entityId: before.id,
    before: { status: before.status },
    after: { status: after!.status, ...change.reason },
  });
  return after!;
}

type PublisherDecision = Pick<admin.UpdatePublisherStatus, 'status' | 'reason' | 'note'>;

/**
 * The reasons of each publisher action (issue 27 item 4): rejecting a sign-up and blocking an
 * account have their own lists; approving and unblocking take none.
 */
const publisherActionReasons: Record<PublisherAction, Record<string, string> | null> = {
  approve: null,
  reject: publisherRejectReasons,
  block: publisherBlockReasons,
  unblock: null,
};
const publisherActionWords: Record<PublisherAction, string> = {
  approve: 'approve a publisher',
  reject: 'reject a sign-up',
  block: 'block a publisher',
  unblock: 'unblock a publisher',
};

/** A 400 naming the allowed reasons when `reason` does not belong to `action`. */
function checkPublisherReason(action: PublisherAction, reason: string | undefined): void {
  if (reason === undefined) return;
  const allowed = publisherActionReasons[action];
  if (allowed && Object.hasOwn(allowed, reason)) return;
  const message = reasonNotAllowed({
    action: publisherActionWords[action],
    allowed,
    reason,
    labels: publisherReasons,
  });
  throw badRequest(message, { reason: [message] });
}

/**
 * One publisher transition inside the caller's transaction (the row is locked): the status and
 * audit entry (with the reason when rejecting or blocking), ending every session when blocking,
 * and the e-mail: approval, or the rejection/block with its reason.
 */
async function writePublisherDecision(
  tx: Tx,
  opts: { actor: Actor; before: UserRow; input: PublisherDecision; loginUrl: string },
): Promise<UserRow> {
  const { before, input } = opts;
  const verdict = publisherTransition(before.status, input.status);
  if (!verdict.ok) throw conflict(verdict.message);
  checkPublisherReason(verdict.action, input.reason);
  const blocking = input.status === 'blocked';
  const note = input.note?.trim() || null;
  const after = await writeStatusChange(tx, {
    actor: opts.actor,
    entityType: 'publisher',
    before,
    status: input.status,
    action: verdict.action,
    reason: blocking && input.reason ? { reason: input.reason, note } : undefined,
  });
  await emitEvent(tx, 'publisher.status_changed', {
    publisher_id: before.id,
    status: input.status,
    previous_status: before.status,
    reason: input.reason ?? null,
  });
  const brand = await getMailBrand(tx);
  // Approving (or unblocking) lets the publisher in again: tell them.
  if (input.status === 'approved') {
    const mail = publisherApprovedMail(brand, { name: before.name ?? '', loginUrl: opts.loginUrl });
    await enqueueMail(tx, { to: before.email, ...mail });
    await notifyUser(tx, before.id, {
      kind: 'publisher_approved',
      title: 'Your publisher account is approved',
      body: 'You can now browse the offers and apply to the ones that fit your traffic.',
      link: appLinks.publisherOffers,
    });
  }
  if (blocking) {
    const why = describeReason(publisherReasons, input.reason, note);
    const rejected = verdict.action === 'reject';
    const mail = publisherBlockedMail(brand, { name: before.name ?? '', rejected, reason: why });
    await enqueueMail(tx, { to: before.email, ...mail });
    // They cannot sign in now; should they be let in again, the history is there to read.
    await notifyUser(tx, before.id, {
      kind: 'publisher_blocked',
      title: rejected
        ? 'Your publisher account was not approved'
        : 'Your publisher account was blocked',
      body: why ? `The reviewer's reason: ${why}` : 'No reason was given.',
      link: null,
    });
  }
  return after;
}

/**
 * Applies one of the spec's publisher transitions in one transaction: the status, the audit
 * entry, ending every session when blocking, and the e-mail to the publisher.
 */
export async function updatePublisherStatus(
  opts: AdminEdit<admin.UpdatePublisherStatus> & { loginUrl: string },
): Promise<admin.AdminPublisher> {
  return opts.db.transaction(async (tx) => {
    const before = await findPublisher(tx, opts.id, true);
    return toAdminPublisher(await writePublisherDecision(tx, { ...opts, before }));
  });
}

/**
 * Approves or rejects many pending publishers with one reason, in one transaction; the ones
 * that are not pending (or not publishers) are listed as skipped with why.
 */
export async function bulkDecidePublishers(
  opts: AdminWrite<admin.BulkDecidePublishers> & { loginUrl: string },
): Promise<admin.BulkDecisionResult> {
  const ids = [...new Set(opts.input.ids)];
  // Bulk decides sign-ups only: approving takes no reason, rejecting one of its own.
  checkPublisherReason(opts.input.status === 'blocked' ? 'reject' : 'approve', opts.input.reason);
  return opts.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(users)
      .where(and(inArray(users.id, ids), eq(users.role, 'publisher')))
      .orderBy(users.id)
      .for('update');
    const found = new Map(rows.map((r) => [r.id, r]));
    const skipped: admin.BulkDecisionResult['skipped'] = [];
    let decided = 0;
    for (const id of ids) {
      const before = found.get(id);
      if (!before) {
        skipped.push({ id, message: 'Publisher not found.' });
        continue;
      }
      // Bulk decides sign-ups only: blocking approved publishers stays one at a time.
      if (before.status !== 'pending') {
        skipped.push({
          id,
          message: `${before.name || before.email} is not pending (already ${before.status}).`,
        });
        continue;
      }
      await writePublisherDecision(tx, { ...opts, before });
      decided += 1;
    }
    return { decided, skipped };
  });
}

/** Blocks or unblocks a buyer; blocking ends every session at once. */
export async function updateBuyerStatus(
  opts: AdminEdit<admin.UpdateBuyerStatus>,
): Promise<admin.AdminBuyer> {
  return opts.db.transaction(async (tx) => {
    const before = await findWithRole(tx, opts.id, 'buyer', true);
    const from: BuyerStatus = before.status === 'blocked' ? 'blocked' : 'active';
    const verdict = buyerTransition(from, opts.input.status);
    if (!verdict.ok) throw conflict(verdict.message);
    const after = await writeStatusChange(tx, {
      actor: opts.actor,
      entityType: 'buyer',
      before,
      status: opts.input.status,
      action: verdict.action,
    });
    return toAdminBuyer({ ...after, twoFactorApps: await twoFactorAppsOf(tx, after.id) });
  });
}

/** Approved (and legacy active) publishers for the payout form, by name. */
export async function listApprovedPublishers(
  opts: ListRead<{ page: number; page_size: number; q?: string | undefined }>,
): Promise<admin.ApprovedPublisherList> {
  const { db, query } = opts;
  const cond = and(
    eq(users.role, 'publisher'),
    inArray(users.status, approvedPublisherStatuses),
    searchUsers(query.q),
  );
  return listPage({
    query,
    keyset: keyset('name', sql`lower(coalesce(${users.name}, ${users.email}))`, 'asc', users.id),
    rows: (w) =>
      pageOf(
        db
          .select({ id: users.id, name: users.name, email: users.email, sortKey: w.sortKey })
          .from(users)
          .$dynamic(),
        cond,
        w,
      ),
    count: () => countRows(db, users, cond, 'exact'),
    toItem: ({ id, name, email }) => ({ id, name, email }),
  });
}

/**
 * Points a publisher's marketing agreement at a newly stored file; returns the key it
 * replaced, which the caller deletes once this has committed.
 */
export async function setPublisherAgreement(
  opts: AdminAction & { key: string },
): Promise<{ publisher: admin.AdminPublisher; replacedKey: string | null }> {
  return opts.db.transaction(async (tx) => {
    const before = await findPublisher(tx, opts.id, true);
    const [after] = await tx
      .update(users)
      .set({ marketingAgreementUrl: opts.key, updatedAt: new Date() })
      .where(eq(users.id, before.id))
      .returning();
    await auditPublisher(tx, opts.actor, 'agreement', before.id, {
      before: { marketing_agreement_url: before.marketingAgreementUrl },
      after: { marketing_agreement_url: opts.key },
    });
    const old = before.marketingAgreementUrl;
    return {
      publisher: toAdminPublisher(after!),
      replacedKey: old && old !== opts.key ? old : null,
    };
  });
}
