import { Readable } from 'node:stream';
import { and, eq, gt, lte } from 'drizzle-orm';
import {
  REMINDER_DAYS,
  SIGN_CONSENT_TEXT,
  type SignatureDocumentDetail,
  type SignDocumentBody,
  type VerifyResult,
} from '../../../contract/documents.ts';
import type { Actor } from '../../auth/guard.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { documentSignatures, signatureDocuments, users } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { conflict, notFound } from '../../errors.ts';
import { enqueueDocumentMail } from '../../mail/document-mails.ts';
import { readStored, type Storage } from '../../storage/storage.ts';
import {
  documentPageUrl,
  eventsOf,
  findDocument,
  getDocumentDetail,
  latestSignature,
  recordEvent,
} from './documents.service.ts';
import { checkSeal, type Seal, sealPdf, sha256Hex } from './seal.ts';
import { addMonths, canSign, dueReminder } from './signatures.policy.ts';
import { buildSignedCopy } from './signed-pdf.ts';

/**
 * Signing a document (the signed copy built, sealed and stored), reading the signed copy,
 * checking an uploaded copy, and the expiry reminders the job sends.
 */

/** The whole stored file, or null when it is missing. */
export { readStored };

/** What signing needs beside the database: files, the seal, the portal's address. */
export type SigningKit = { storage: Storage; seal: () => Seal; publicUrl: string };

/**
 * The publisher signs their document: the stored original is read and hashed (the hash of what
 * the page showed, checked against `document_sha256` when the page sent it), the signed copy is
 * built and sealed and stored, then the signature, its event and the mail are written in one
 * transaction (the stored copy removed if that fails). Another publisher's document is a 404.
 */
export async function signDocument(opts: {
  db: Db;
  kit: SigningKit;
  id: string;
  publisher: Actor;
  input: SignDocumentBody;
  ip: string;
  userAgent: string;
  now?: Date;
}): Promise<SignatureDocumentDetail> {
  const { db, kit, now = new Date() } = opts;
  const doc = await findDocument(db, opts.id, opts.publisher.id);
  if (!canSign(doc, now)) {
    throw conflict(
      doc.status === 'superseded'
        ? 'A newer version of this document was sent: please sign that one.'
        : 'You have already signed this document.',
    );
  }
  const original = await readStored(kit.storage, doc.fileKey);
  if (!original) throw notFound('Document file');
  const shownSha256 = sha256Hex(original);
  if (
    shownSha256 !== doc.sha256 ||
    (opts.input.document_sha256 && opts.input.document_sha256 !== shownSha256)
  ) {
    throw conflict(
      'The document changed while you were reading it. Please reload the page and read it again.',
    );
  }
  const brand = await getSettings(db);
  const expiresAt =
    brand.documentResignMonths && doc.kind === 'agreement'
      ? addMonths(now, brand.documentResignMonths)
      : null;
  const signedEvent = {
    type: 'signed' as const,
    at: now.toISOString(),
    actor_email: opts.publisher.email,
    ip: opts.ip,
    user_agent: opts.userAgent,
  };
  const copy = await buildSignedCopy(original, {
    companyName: brand.companyName,
    documentId: doc.id,
    title: doc.title,
    kind: doc.kind,
    version: doc.version,
    publisherName: doc.publisherName ?? doc.publisherEmail,
    fullName: opts.input.full_name,
    email: opts.publisher.email,
    signedAt: now,
    ip: opts.ip,
    userAgent: opts.userAgent,
    consentText: SIGN_CONSENT_TEXT,
    shownSha256,
    events: [...(await eventsOf(db, doc.id)), signedEvent],
  });
  const seal = kit.seal();
  const sealed = await sealPdf(copy, seal, {
    reason: `Signed by ${opts.input.full_name} (${opts.publisher.email})`,
    name: brand.companyName,
    contactInfo: brand.supportEmail,
    location: new URL(kit.publicUrl).host,
    at: now,
  });
  const stored = await kit.storage.putFile({
    bucket: doc.kind === 'io' ? 'io_documents' : 'marketing_agreements',
    owner: doc.publisherId,
    filename: `${doc.title}-signed.pdf`,
    stream: Readable.from(sealed),
    accept: ['pdf'],
  });
  try {
    await db.transaction(async (tx) => {
      // Signed once: a second click racing the first finds the row signed and stops here.
      const [row] = await tx
        .select({ status: signatureDocuments.status, expiresAt: signatureDocuments.expiresAt })
        .from(signatureDocuments)
        .where(eq(signatureDocuments.id, doc.id))
        .for('update');
      if (!row || !canSign(row, now)) throw conflict('You have already signed this document.');
      await tx.insert(documentSignatures).values({
        documentId: doc.id,
        fullName: opts.input.full_name,
        email: opts.publisher.email,
        ip: opts.ip,
        userAgent: opts.userAgent,
        consentText: SIGN_CONSENT_TEXT,
        shownSha256,
        signedKey: stored.key,
        sealedSha256: sha256Hex(sealed),
        certSha256: seal.certSha256,
        signedAt: now,
        expiresAt,
      });
      await tx
        .update(signatureDocuments)
        .set({ status: 'signed', signedAt: now, expiresAt, remindedDays: [] })
        .where(eq(signatureDocuments.id, doc.id));
      const source = { actor: opts.publisher, ip: opts.ip, userAgent: opts.userAgent };
      await recordEvent(tx, doc, 'signed', source, now);
      await enqueueDocumentMail(tx, {
        kind: 'signed',
        to: opts.publisher.email,
        name: doc.publisherName,
        title: doc.title,
        url: documentPageUrl(kit.publicUrl, doc.id),
        attachment: {
          key: stored.key,
          filename: `${doc.title} (signed).pdf`,
          contentType: 'application/pdf',
        },
      });
    });
  } catch (err) {
    await kit.storage.delete(stored.key).catch(() => undefined);
    throw err;
  }
  return getDocumentDetail({
    db,
    storage: kit.storage,
    id: doc.id,
    publisherId: opts.publisher.id,
    now,
  });
}

/** The latest sealed copy of a document (the admin's, or its own publisher's: else 404). */
export async function readSignedPdf(opts: {
  db: DbOrTx;
  storage: Storage;
  id: string;
  publisherId?: string;
}): Promise<{ fileName: string; data: Buffer }> {
  const doc = await findDocument(opts.db, opts.id, opts.publisherId);
  const sig = await latestSignature(opts.db, doc.id);
  if (!sig) throw notFound('Signed document');
  const data = await readStored(opts.storage, sig.signedKey);
  if (!data) throw notFound('Signed document');
  const safe = doc.title.replace(/[^\w .-]+/g, '_').slice(0, 100) || 'document';
  return { fileName: `${safe} (signed).pdf`, data };
}

/**
 * Whether an uploaded PDF is an unchanged copy sealed by this portal: the seal must check with
 * the portal's certificate (or one it sealed with before), and the copy is named when its hash
 * is one the portal stored.
 */
export async function verifyPdf(opts: {
  db: DbOrTx;
  seal: Seal;
  data: Buffer;
}): Promise<VerifyResult> {
  const known = await opts.db
    .selectDistinct({ cert: documentSignatures.certSha256 })
    .from(documentSignatures);
  const trusted = new Set([opts.seal.certSha256, ...known.map((k) => k.cert)]);
  const check = checkSeal(opts.data, trusted);
  const none = { document_id: null, signer: null, signed_at: null };
  if (!check.ok) return { valid: false, message: check.reason, ...none };
  const [sig] = await opts.db
    .select({
      documentId: documentSignatures.documentId,
      fullName: documentSignatures.fullName,
      email: documentSignatures.email,
      signedAt: documentSignatures.signedAt,
    })
    .from(documentSignatures)
    .where(eq(documentSignatures.sealedSha256, sha256Hex(opts.data)));
  if (!sig) {
    return {
      valid: true,
      message:
        'Sealed by this portal and unchanged, but it is not a copy this portal has on record.',
      ...none,
      signed_at: check.signedAt?.toISOString() ?? null,
    };
  }
  return {
    valid: true,
    message: `Unchanged copy sealed by this portal: signed by ${sig.fullName} (${sig.email}).`,
    document_id: sig.documentId,
    signer: `${sig.fullName} <${sig.email}>`,
    signed_at: sig.signedAt.toISOString(),
  };
}

/**
 * The expiry reminders due at `now` (30, 7 and 1 days before a signature expires), each sent
 * once per signature: mailed, recorded as an event and in the History. Answers how many.
 */
export async function sendExpiryReminders(opts: {
  db: Db;
  publicUrl: string;
  now?: Date;
}): Promise<number> {
  const { db, now = new Date() } = opts;
  const horizon = new Date(now.getTime() + REMINDER_DAYS[0] * 86_400_000);
  const due = await db
    .select({ id: signatureDocuments.id })
    .from(signatureDocuments)
    .where(
      and(
        eq(signatureDocuments.status, 'signed'),
        // Expiring within the first reminder's window, not yet expired: a range of the
        // partial index on expires_at of signed documents.
        gt(signatureDocuments.expiresAt, now),
        lte(signatureDocuments.expiresAt, horizon),
      ),
    );
  let sent = 0;
  for (const { id } of due) {
    const done = await db.transaction(async (tx) => {
      const [doc] = await tx
        .select()
        .from(signatureDocuments)
        .where(eq(signatureDocuments.id, id))
        .for('update');
      if (!doc?.expiresAt || doc.expiresAt > horizon) return false;
      const days = dueReminder(doc, now);
      if (days === null) return false;
      const [publisher] = await tx
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(eq(users.id, doc.publisherId));
      if (!publisher) return false;
      await tx
        .update(signatureDocuments)
        .set({ remindedDays: [...doc.remindedDays, days], lastRemindedAt: now })
        .where(eq(signatureDocuments.id, doc.id));
      await recordEvent(tx, doc, 'reminded', { actor: null }, now);
      await enqueueDocumentMail(tx, {
        kind: 'expiring',
        to: publisher.email,
        name: publisher.name,
        title: doc.title,
        daysLeft: Math.max(1, Math.ceil((doc.expiresAt.getTime() - now.getTime()) / 86_400_000)),
        url: documentPageUrl(opts.publicUrl, doc.id),
      });
      return true;
    });
    if (done) sent += 1;
  }
  return sent;
}
