import {
  and,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import {
  type DocumentEvent,
  type DocumentEventType,
  type DocumentList,
  type DocumentListQuery,
  type DocumentSettings,
  type DocumentStatus,
  type RemindDocumentsResult,
  type SendDocumentFields,
  SIGN_CONSENT_TEXT,
  type SignatureDocument,
  type SignatureDocumentDetail,
} from '../../../contract/documents.ts';
import { SIGNED_URL_SECONDS } from '../../../contract/publisher.ts';
import type { Actor } from '../../auth/guard.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { countSearched, keysetOf, listPage, pageOf, searchAny } from '../../db/list-query.ts';
import { type PublisherRefRow, publisherRefColumns, toPublisherRef } from '../../db/refs.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import {
  documentEvents,
  documentSignatures,
  offerApplications,
  offers,
  signatureDocuments,
  users,
} from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { badRequest } from '../../errors.ts';
import { enqueueDocumentMail } from '../../mail/document-mails.ts';
import type { Storage } from '../../storage/storage.ts';
import { type AdminWrite, writeAudit } from '../audit/index.ts';
import { saveSettingsSection } from '../settings/index.ts';
import { canSign, statusOf } from './signatures.policy.ts';

/**
 * Documents sent for signature: sending a new one (or a new version), the lists, one document
 * with its events, "viewed", reminders and the re-sign setting. Signing is `sign.service.ts`.
 */

/** Who caused an event: the admin or publisher and their request's address, or a job (null). */
export type EventSource = { actor: Actor | null; ip?: string | null; userAgent?: string | null };

type DocRow = typeof signatureDocuments.$inferSelect;

/** Where the publisher reads and signs a document (the link of every mail about it). */
export const documentPageUrl = (publicUrl: string, id: string) =>
  `${publicUrl}/dashboard/documents/${id}`;

/**
 * Records one event of a document: in its events (the audit certificate's list) and in the
 * audit log under the publisher (their History), inside the causing transaction.
 */
export async function recordEvent(
  tx: DbOrTx,
  doc: Pick<DocRow, 'id' | 'publisherId' | 'title' | 'kind' | 'version'>,
  type: DocumentEventType,
  source: EventSource,
  at: Date,
): Promise<void> {
  await tx.insert(documentEvents).values({
    documentId: doc.id,
    type,
    at,
    actorEmail: source.actor?.email ?? null,
    ip: source.ip ?? null,
    userAgent: source.userAgent ?? null,
  });
  await writeAudit(tx, {
    actor: source.actor,
    action: `document.${type}`,
    entityType: 'publisher',
    entityId: doc.publisherId,
    before: null,
    after: { document_id: doc.id, kind: doc.kind, title: doc.title, version: doc.version },
  });
}

/**
 * Sends an uploaded PDF for signature: a new document, or the next version of the publisher's
 * current one of the same kind (and application, for an IO), which it supersedes; the publisher
 * is mailed. `fileKey` was stored by the route and `sha256` is its content's hash.
 */
export async function sendDocument(opts: {
  db: Db;
  actor: Actor;
  input: SendDocumentFields;
  fileKey: string;
  fileName: string;
  sha256: string;
  publicUrl: string;
  now?: Date;
}): Promise<{ id: string }> {
  const { db, input, now = new Date() } = opts;
  return db.transaction(async (tx) => {
    const publisher = await oneOrNotFound(
      tx
        .select({ id: users.id, email: users.email, name: users.name })
        .from(users)
        .where(and(eq(users.id, input.publisher_id), eq(users.role, 'publisher'))),
      'Publisher',
    );
    if (input.kind === 'io' && !input.application_id) {
      throw badRequest('Choose the application this IO is for.', {
        application_id: ['Choose the application this IO is for.'],
      });
    }
    if (input.application_id) {
      const [app] = await tx
        .select({ publisherId: offerApplications.publisherId })
        .from(offerApplications)
        .where(eq(offerApplications.id, input.application_id));
      if (app?.publisherId !== publisher.id) {
        throw badRequest('This application is not one of this publisher’s.', {
          application_id: ['This application is not one of this publisher’s.'],
        });
      }
    }
    const sameChain = and(
      eq(signatureDocuments.publisherId, publisher.id),
      eq(signatureDocuments.kind, input.kind),
      input.application_id
        ? eq(signatureDocuments.applicationId, input.application_id)
        : isNull(signatureDocuments.applicationId),
    );
    // The chain's rows locked: two uploads at once make versions n and n+1, not two n's.
    const previous = await tx
      .select()
      .from(signatureDocuments)
      .where(sameChain)
      .orderBy(desc(signatureDocuments.version))
      .for('update');
    const title = input.title || opts.fileName.replace(/\.pdf$/i, '');
    const [doc] = await tx
      .insert(signatureDocuments)
      .values({
        publisherId: publisher.id,
        kind: input.kind,
        applicationId: input.application_id ?? null,
        version: (previous[0]?.version ?? 0) + 1,
        title,
        fileKey: opts.fileKey,
        sha256: opts.sha256,
        sentBy: opts.actor.id,
        sentAt: now,
      })
      .returning();
    const source = { actor: opts.actor };
    for (const old of previous.filter((p) => p.status !== 'superseded')) {
      await tx
        .update(signatureDocuments)
        .set({ status: 'superseded', supersededAt: now })
        .where(eq(signatureDocuments.id, old.id));
      await recordEvent(tx, old, 'superseded', source, now);
    }
    await recordEvent(tx, doc!, 'sent', source, now);
    await enqueueDocumentMail(tx, {
      kind: 'sent',
      to: publisher.email,
      name: publisher.name,
      title,
      url: documentPageUrl(opts.publicUrl, doc!.id),
    });
    return { id: doc!.id };
  });
}

/** The columns a document's answer reads (with its publisher and offer). */
const docColumns = {
  ...getTableColumns(signatureDocuments),
  ...publisherRefColumns(signatureDocuments.publisherId),
  offerTitle: offers.title,
};

function selectDocs(db: DbOrTx, sortKey?: SQL<string | null>) {
  return db
    .select({ ...docColumns, sortKey: sortKey ?? sql<string | null>`null` })
    .from(signatureDocuments)
    .innerJoin(users, eq(users.id, signatureDocuments.publisherId))
    .leftJoin(offerApplications, eq(offerApplications.id, signatureDocuments.applicationId))
    .leftJoin(offers, eq(offers.id, offerApplications.offerId));
}

export type DocJoined = DocRow & PublisherRefRow & { offerTitle: string | null };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toDocument(d: DocJoined, storage: Storage, now: Date): SignatureDocument {
  return {
    id: d.id,
    kind: d.kind,
    version: d.version,
    title: d.title,
    ...toPublisherRef(d),
    application_id: d.applicationId,
    offer_title: d.offerTitle,
    status: statusOf(d, now),
    sent_at: d.sentAt.toISOString(),
    viewed_at: iso(d.viewedAt),
    signed_at: iso(d.signedAt),
    expires_at: iso(d.expiresAt),
    last_reminded_at: iso(d.lastRemindedAt),
    document_sha256: d.sha256,
    file_url: storage.signedUrl(d.fileKey, SIGNED_URL_SECONDS),
    signed_pdf_path: d.signedAt ? `/api/v1/documents/${d.id}/signed.pdf` : null,
    can_sign: canSign(d, now),
  };
}

/** The SQL condition of a status the API shows (expired: signed, past its expiry). */
function statusWhere(status: DocumentStatus | undefined, now: Date): SQL | undefined {
  if (!status) return undefined;
  const col = signatureDocuments;
  if (status === 'expired') return and(eq(col.status, 'signed'), lte(col.expiresAt, now));
  if (status === 'signed') {
    return and(eq(col.status, 'signed'), or(isNull(col.expiresAt), gt(col.expiresAt, now)));
  }
  return eq(col.status, status);
}

const sorts = {
  sent_at: signatureDocuments.sentAt,
  signed_at: signatureDocuments.signedAt,
  expires_at: signatureDocuments.expiresAt,
};

/** Admin → Signatures: every document, newest sent first, filtered by status, kind, publisher. */
export function listDocuments(opts: {
  db: DbOrTx;
  storage: Storage;
  query: DocumentListQuery & { sort: keyof typeof sorts; order: 'asc' | 'desc' } & {
    page: number;
    page_size: number;
  };
  now?: Date;
}): Promise<DocumentList> {
  const { db, storage, query, now = new Date() } = opts;
  const where = and(
    statusWhere(query.status, now),
    query.kind ? eq(signatureDocuments.kind, query.kind) : undefined,
    query.publisher_id ? eq(signatureDocuments.publisherId, query.publisher_id) : undefined,
    // Superseded versions only when asked for: the list is about what is in force.
    query.status ? undefined : ne(signatureDocuments.status, 'superseded'),
    searchAny(query.q, signatureDocuments.title, users.email, users.name),
  );
  return listPage({
    query,
    keyset: keysetOf(sorts, query, signatureDocuments.id),
    rows: (w) => pageOf(selectDocs(db, w.sortKey).$dynamic(), where, w),
    count: () =>
      countSearched(db, signatureDocuments, where, query.q, (m) =>
        m.innerJoin(users, eq(users.id, signatureDocuments.publisherId)),
      ),
    toItem: (r: DocJoined) => toDocument(r, storage, now),
  });
}

/** One document and its publisher and offer; a 404 unless it is the publisher's own (when given). */
export function findDocument(db: DbOrTx, id: string, publisherId?: string): Promise<DocJoined> {
  return oneOrNotFound(
    selectDocs(db).where(
      and(
        eq(signatureDocuments.id, id),
        publisherId ? eq(signatureDocuments.publisherId, publisherId) : undefined,
      ),
    ),
    'Document',
  );
}

/** A document's events, oldest first (the audit certificate's order). */
export async function eventsOf(db: DbOrTx, documentId: string): Promise<DocumentEvent[]> {
  const rows = await db
    .select()
    .from(documentEvents)
    .where(eq(documentEvents.documentId, documentId))
    .orderBy(documentEvents.at, documentEvents.id);
  return rows.map((e) => ({
    type: e.type as DocumentEventType,
    at: e.at.toISOString(),
    actor_email: e.actorEmail,
    ip: e.ip,
    user_agent: e.userAgent,
  }));
}

/** The document's latest signature, or null. */
export async function latestSignature(db: DbOrTx, documentId: string) {
  const [row] = await db
    .select()
    .from(documentSignatures)
    .where(eq(documentSignatures.documentId, documentId))
    .orderBy(desc(documentSignatures.signedAt))
    .limit(1);
  return row ?? null;
}

/** One document with its latest signature and its events (admin, or its own publisher). */
export async function getDocumentDetail(opts: {
  db: DbOrTx;
  storage: Storage;
  id: string;
  publisherId?: string;
  now?: Date;
}): Promise<SignatureDocumentDetail> {
  const { db, now = new Date() } = opts;
  const doc = await findDocument(db, opts.id, opts.publisherId);
  const [sig, events] = await Promise.all([latestSignature(db, doc.id), eventsOf(db, doc.id)]);
  return {
    ...toDocument(doc, opts.storage, now),
    signature: sig && {
      full_name: sig.fullName,
      email: sig.email,
      signed_at: sig.signedAt.toISOString(),
      ip: sig.ip,
      user_agent: sig.userAgent,
      consent_text: sig.consentText,
      shown_sha256: sig.shownSha256,
      sealed_sha256: sig.sealedSha256,
      expires_at: iso(sig.expiresAt),
    },
    events,
    consent_text: SIGN_CONSENT_TEXT,
  };
}

/**
 * The publisher opens their document: the first opening of each version is its `viewed`
 * event. A 404 for anyone else's document.
 */
export async function viewDocument(opts: {
  db: Db;
  storage: Storage;
  id: string;
  publisher: Actor;
  ip: string;
  userAgent: string;
  now?: Date;
}): Promise<SignatureDocumentDetail> {
  const { db, now = new Date() } = opts;
  await db.transaction(async (tx) => {
    const [doc] = await tx
      .update(signatureDocuments)
      .set({
        viewedAt: now,
        status: sql`case when ${signatureDocuments.status} = 'sent' then 'viewed' else ${signatureDocuments.status} end`,
      })
      .where(
        and(
          eq(signatureDocuments.id, opts.id),
          eq(signatureDocuments.publisherId, opts.publisher.id),
          isNull(signatureDocuments.viewedAt),
        ),
      )
      .returning();
    if (doc) {
      const source = { actor: opts.publisher, ip: opts.ip, userAgent: opts.userAgent };
      await recordEvent(tx, doc, 'viewed', source, now);
    }
  });
  return getDocumentDetail({ ...opts, publisherId: opts.publisher.id, now });
}

/** The publisher's own current documents (superseded versions left out), newest first. */
export async function listOwnDocuments(opts: {
  db: DbOrTx;
  storage: Storage;
  publisherId: string;
  now?: Date;
}): Promise<{ items: SignatureDocument[] }> {
  const now = opts.now ?? new Date();
  const rows = await selectDocs(opts.db)
    .where(
      and(
        eq(signatureDocuments.publisherId, opts.publisherId),
        ne(signatureDocuments.status, 'superseded'),
      ),
    )
    .orderBy(desc(signatureDocuments.sentAt), desc(signatureDocuments.id))
    .limit(200);
  return { items: rows.map((r) => toDocument(r, opts.storage, now)) };
}

/**
 * Admin → Signatures → Remind: mails the publisher of each chosen document that still needs
 * their signature (unsigned, expired, or in its reminder window); the rest are skipped.
 */
export async function remindDocuments(opts: {
  db: Db;
  actor: Actor;
  ids: string[];
  publicUrl: string;
  now?: Date;
}): Promise<RemindDocumentsResult> {
  const { db, now = new Date() } = opts;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ ...getTableColumns(signatureDocuments), email: users.email, name: users.name })
      .from(signatureDocuments)
      .innerJoin(users, eq(users.id, signatureDocuments.publisherId))
      .where(inArray(signatureDocuments.id, opts.ids));
    let reminded = 0;
    for (const doc of rows) {
      if (!canSign(doc, now)) continue;
      await tx
        .update(signatureDocuments)
        .set({ lastRemindedAt: now })
        .where(eq(signatureDocuments.id, doc.id));
      await recordEvent(tx, doc, 'reminded', { actor: opts.actor }, now);
      const expiring = doc.status === 'signed' && doc.expiresAt && doc.expiresAt > now;
      await enqueueDocumentMail(tx, {
        kind: expiring ? 'expiring' : 'reminder',
        to: doc.email,
        name: doc.name,
        title: doc.title,
        daysLeft: expiring ? Math.ceil((doc.expiresAt!.getTime() - now.getTime()) / 86_400_000) : 0,
        url: documentPageUrl(opts.publicUrl, doc.id),
      });
      reminded += 1;
    }
    return { reminded, skipped: opts.ids.length - reminded };
  });
}

/** Settings → Documents: after how many months a signed agreement must be signed again. */
export async function getDocumentSettings(db: DbOrTx): Promise<DocumentSettings> {
  return { resign_months: (await getSettings(db)).documentResignMonths };
}

export function updateDocumentSettings(
  opts: AdminWrite<DocumentSettings>,
): Promise<DocumentSettings> {
  return saveSettingsSection({
    ...opts,
    what: 'documents',
    read: getDocumentSettings,
    set: { documentResignMonths: opts.input.resign_months },
    after: opts.input,
  });
}
